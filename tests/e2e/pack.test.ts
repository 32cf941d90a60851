// What `npm pack` / `npm publish` ship from a clean clone, where nothing has been built: the package
// holds what it must and nothing it mustn't, within a size budget, and it works once installed.
// The clone is of HEAD: commit before trusting a local run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUM_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { hookPayload } from '../helpers/run-bin.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';

/**
 * The budget we hold the package to. Measured at 330 kB packed, 1.57 MB unpacked, 101 files; then
 * 470 kB / 2.03 MB / 143 before issue 17 added gate mcp (the MCP SDK's server, bundled: +35 kB
 * packed), gate history, receipts, gate ci, the post-edit bundle and their docs: 570 kB / 2.41 MB / 176.
 */
// Raised with the features that need the room (issue 27: the JS module graph, the tsc subset, monorepo results on content): ~658 KB packed, 195 files then.
// Raised again (issues 28–31: the project's Python environment, every package manager's words, the
// pyright, basedpyright and formatter presets and filters, Qoder, the harness pages): ~737 KB packed,
// 2.98 MB unpacked, 221 files then.
// Raised again (issues 37–38: the start's capture and evidence, structured values for the tamper
// guard, git's time limits, the gofmt and golangci-lint presets and filter): ~827 KB packed, 3.29 MB
// unpacked, 251 files then. esbuild's minifyWhitespace alone would take 67 KB off (759 KB packed,
// 2.73 MB unpacked), at the cost of one-line stack traces: not done yet (issue 40).
// Raised again (issue 39: unchanged code by emitted code and syntax trees, the vitest and pytest
// coverage records with gate's pytest plugin in python/, the barrel and manifest rules): ~885 KB
// packed, 3.49 MB unpacked, 265 files then.
// Raised again (issue 41: SARIF, JUnit, Code Quality, annotations, the pull-request comment and
// every command's --help, each loaded only by the command that asks for it: 9 more files, ~15 KB
// packed with the docs): ~928 KB packed, 3.64 MB unpacked, 289 files then.
// Then the contributors' docs left the package (docs/performance.md, docs/testing.md: benchmark
// figures and how the suite runs, 94 KB unpacked): ~915 KB packed, 3.62 MB unpacked, 290 files.
const BUDGET = { packedBytes: 950_000, unpackedBytes: 3_750_000, files: 300 };

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string }>;
}

const base = realpathSync(mkdtempSync(join(tmpdir(), 'gate-clone-')));
const clone = join(base, 'stopgate');
let project: TempRepo | undefined;
afterAll(() => {
  project?.cleanup();
  rmSync(base, { recursive: true, force: true });
});

function pack(...args: string[]): PackResult {
  const out = execFileSync('npm', ['pack', '--json', ...args], { cwd: clone, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  const [result] = JSON.parse(out) as PackResult[];
  if (!result) throw new Error(`npm pack printed nothing:\n${out}`);
  return result;
}

beforeAll(() => {
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', PROJECT_ROOT, clone]);
  // The locked devDependencies (esbuild and what gets bundled), as `npm ci` would install them.
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(clone, 'node_modules'));
});

describe('the package, packed from a fresh clone without building first', () => {
  it('builds dist/ on pack, and holds what it must and nothing it mustn\'t, within budget', () => {
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    const dry = pack('--dry-run');
    const paths = dry.files.map((file) => file.path);
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin/gate.cjs', 'dist/hook.cjs', 'dist/cli.js', 'dist/commands/run-stop-gates.js', 'schema.json', 'presets/vitest.json', 'presets/cargo-clippy.json', 'templates/opencode-plugin.js', '.claude-plugin/plugin.json', '.claude-plugin/marketplace.json', 'hooks/hooks.json', 'docs/stop-contract.md', 'docs/compatibility.md']) {
      expect(paths, needed).toContain(needed);
    }
    expect(paths.filter((path) => /^(src|tests|scripts|\.cache|\.ci|\.github|node_modules)\//.test(path) || /fixtures|\.test\.|\.partial-|\.old-|\.tsbuildinfo$/.test(path))).toEqual([]);
    expect(dry.size).toBeLessThanOrEqual(BUDGET.packedBytes);
    expect(dry.unpackedSize).toBeLessThanOrEqual(BUDGET.unpackedBytes);
    expect(dry.entryCount).toBeLessThanOrEqual(BUDGET.files);
  });

  it('says the truth in package.json: no runtime dependencies (they are bundled), the license file matches', () => {
    const manifest = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { dependencies?: object; license: string; engines: { node: string } };
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(clone, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect(manifest.engines.node).toBe('>=20');
    const bundled = readFileSync(join(clone, 'dist', 'hook.cjs'), 'utf8');
    expect(bundled).not.toMatch(/require\("(zod|execa|picomatch|strip-ansi)"\)/);
    // A checked stop validates a changed config with the ESM build's zod, on a cache miss only: the
    // stop's own half carries none (a static import of loadPresets once put zod and its locales there).
    const stopHalf = readFileSync(join(clone, 'dist', 'hook-gates.cjs'), 'utf8');
    expect(stopHalf.includes('node_modules/zod/'), 'zod is in dist/hook-gates.cjs: something the stop imports statically reaches config/load-config.ts or load-presets.ts').toBe(false);
    // Issue 41's report writers load only with gate check and gate ci when a report is asked for: never in a stop.
    for (const [name, text] of [['hook.cjs', bundled], ['hook-gates.cjs', stopHalf]]) {
      expect(text, `the SARIF, JUnit, Code Quality or comment writer reached dist/${name}`).not.toMatch(/sarif-2\.1\.0\.json|<testsuites name=|Bug Risk|<!-- stopgate -->/);
    }
  });

  // A new user's path too (it was new-user.test.ts, which packed and installed the working tree a
  // second time): npm install, npx gate init --yes, then a stop through the hook init wrote.
  it('installs into a project, where gate --version, npx gate init --yes, gate status and a stop through the installed hook work', () => {
    const tarball = join(base, pack('--pack-destination', base).filename);
    const files = vitestProject();
    delete files['gate.config.json'];
    project = makeRepo(files);
    const npmEnv = { ...project.env, npm_config_cache: join(process.env['HOME'] ?? '/root', '.npm'), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '-D', tarball, 'vitest@4.1.12', 'typescript@5.9.3'], { cwd: project.dir, env: npmEnv, stdio: 'pipe' });
    const npx = (...args: string[]) => spawnSync('npx', ['gate', ...args], { cwd: project?.dir, env: npmEnv, encoding: 'utf8' });

    const version = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).version as string;
    expect(npx('--version')).toMatchObject({ status: 0, stdout: `${version}\n` });
    const init = npx('init', '--yes');
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/Wrote gate\.config\.json, \.claude\/settings\.json/);
    const status = npx('status');
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/test/);

    const command: string = JSON.parse(readFileSync(join(project.dir, '.claude', 'settings.json'), 'utf8')).hooks.Stop[0].hooks[0].command;
    expect(command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run');
    project.write('src/sum.ts', SUM_BROKEN);
    const stop = spawnSync('/bin/sh', ['-c', command], {
      cwd: project.dir,
      env: { ...project.env, CLAUDE_PROJECT_DIR: project.dir },
      input: hookPayload('Stop', 'packed', project.dir),
      encoding: 'utf8',
    });
    expect(stop.status).toBe(2);
    expect(stop.stderr).toContain('sum > adds two numbers');
    expect(stop.stderr).toContain('expected -1 to be 3');
  });
});
