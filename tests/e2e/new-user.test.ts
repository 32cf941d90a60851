import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SUM_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { hookPayload } from '../helpers/run-bin.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo | undefined;
const packDir = mkdtempSync(join(tmpdir(), 'gate-pack-'));
afterAll(() => {
  repo?.cleanup();
  rmSync(packDir, { recursive: true, force: true });
});

describe('a new user, from the packed tarball', () => {
  it('npm install, npx gate init --yes, then a stop through the installed hook blocks a broken edit', () => {
    const packed = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', packDir], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
    const tarball = join(packDir, packed);
    const files = vitestProject();
    delete files['gate.config.json'];
    const fresh = makeRepo(files);
    repo = fresh;
    const npmEnv = { ...fresh.env, npm_config_cache: join(process.env['HOME'] ?? '/root', '.npm'), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '-D', tarball, 'vitest@4.1.12', 'typescript@5.9.3'], { cwd: fresh.dir, env: npmEnv, stdio: 'pipe' });
    const init = spawnSync('npx', ['gate', 'init', '--yes'], { cwd: fresh.dir, env: npmEnv, encoding: 'utf8' });
    expect(init.status).toBe(0);
    expect(init.stdout).toMatch(/Wrote gate\.config\.json, \.claude\/settings\.json/);

    const command: string = JSON.parse(readFileSync(join(fresh.dir, '.claude', 'settings.json'), 'utf8')).hooks.Stop[0].hooks[0].command;
    expect(command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run');
    fresh.write('src/sum.ts', SUM_BROKEN);
    const stop = spawnSync('/bin/sh', ['-c', command], {
      cwd: fresh.dir,
      env: { ...fresh.env, CLAUDE_PROJECT_DIR: fresh.dir },
      input: hookPayload('Stop', 'new-user', fresh.dir),
      encoding: 'utf8',
    });
    expect(stop.status).toBe(2);
    expect(stop.stderr).toContain('sum > adds two numbers');
    expect(stop.stderr).toContain('expected -1 to be 3');
  });
});
