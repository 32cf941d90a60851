// stopgate installed with the project's own package manager (issue 28): real pnpm and yarn, from
// the package tarball, and what init and doctor then tell the user to type.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'gate-managers-')));
let tarball = '';
let repo: TempRepo;
afterEach(() => repo?.cleanup());
afterAll(() => rmSync(base, { recursive: true, force: true }));

// The built checkout, packed as is (tests/e2e/pack.test.ts packs a clean clone): fast, no rebuild.
beforeAll(() => {
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', base], { cwd: PROJECT_ROOT, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  tarball = join(base, (JSON.parse(out) as Array<{ filename: string }>)[0]?.filename ?? '');
});

/** A package manager run from npx's cache (the machine's npm cache; no download when it is there). */
function manager(spec: string, args: string[]) {
  const env = {
    ...repo.env,
    npm_config_cache: join(process.env['HOME'] ?? '/root', '.npm'),
    npm_config_update_notifier: 'false',
    YARN_CACHE_FOLDER: join(base, 'yarn-cache'),
    COREPACK_ENABLE_STRICT: '0',
  };
  return spawnSync('npx', ['-y', '--prefer-offline', spec, ...args], { cwd: repo.dir, env, encoding: 'utf8', timeout: 120_000 });
}

const nextSteps = (stdout: string) => stdout.slice(stdout.indexOf('\nNext:'));

describe('a pnpm workspace (npm cannot install there: EUNSUPPORTEDPROTOCOL on link:)', () => {
  it('`pnpm add -D -w` installs stopgate; init and doctor say `pnpm install` and `pnpm exec gate`', () => {
    repo = makeRepo({
      'package.json': '{ "name": "root", "private": true }\n',
      'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
      'packages/a/package.json': '{ "name": "a", "version": "1.0.0", "dependencies": { "b": "link:../b" } }\n',
      'packages/b/package.json': '{ "name": "b", "version": "1.0.0" }\n',
    });
    const added = manager('pnpm@9', ['add', '-D', '-w', tarball, '--offline', '--store-dir', join(base, 'pnpm-store')]);
    expect(added.status, added.stderr + added.stdout).toBe(0);
    const init = manager('pnpm@9', ['exec', 'gate', 'init', '--yes', '--no-check']);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/^Package manager: pnpm \(pnpm-lock\.yaml is present\)\.$/m);
    expect(init.stdout).toMatch(/run `pnpm exec gate init --each-package` here/);
    expect(nextSteps(init.stdout)).toMatch(/Teammates need `pnpm install` \(stopgate is a devDependency\)/);
    expect(nextSteps(init.stdout)).toMatch(/Run `pnpm exec gate check --all` to see the gates pass now, and `pnpm exec gate doctor`/);
    expect(init.stdout).not.toMatch(/(^|[^p])npm install|npx gate/);
    expect(readFileSync(join(repo.dir, '.gitignore'), 'utf8')).toBe('node_modules/\n');
    const doctor = manager('pnpm@9', ['exec', 'gate', 'doctor']);
    expect(doctor.stdout).toMatch(/run "pnpm exec gate check --all"/);
  });
});

describe('a yarn 1 project', () => {
  it('`yarn add -D` installs stopgate; init says `yarn install` and `yarn gate`', () => {
    repo = makeRepo({ 'package.json': '{ "name": "app", "version": "1.0.0", "private": true }\n', '.gitignore': 'node_modules/\n' });
    const added = manager('yarn@1', ['add', '-D', tarball, '--offline', '--no-progress']);
    expect(added.status, added.stderr + added.stdout).toBe(0);
    const init = manager('yarn@1', ['--silent', 'gate', 'init', '--yes', '--no-check']);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/^Package manager: yarn \(yarn\.lock is present\)\.$/m);
    expect(nextSteps(init.stdout)).toMatch(/Teammates need `yarn install`/);
    expect(nextSteps(init.stdout)).toMatch(/Run `yarn gate check --all` to see the gates pass now, and `yarn gate doctor`/);
    expect(init.stdout).not.toMatch(/(^|[^p])npm install|npx gate/);
  });
});

describe('gate run through npx, in a project that is no Node package', () => {
  it('its hints name the same pinned package (`npx stopgate@VERSION`), not `npx gate`', () => {
    repo = makeRepo({ 'app.py': 'def main():\n    return 1\n' });
    const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    const doctor = manager('--package', [tarball, 'gate', 'doctor']);
    expect(doctor.stdout).toMatch(new RegExp(`not installed: .*run "npx stopgate@${version.replace(/\./g, '\\.')} init"`));
    expect(doctor.stdout).not.toMatch(/npx gate/);
  });
});
