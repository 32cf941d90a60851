import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type BinResult, GATE_BIN, hookPayload, runBin } from '../helpers/run-bin.js';
import { copyRepo, makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';
import { hasTool, toolEnv } from '../helpers/tools.js';
import { breakShared, cargoWorkspace, goWorkspace, JS_PACKAGES, npmWorkspace, pnpmWorkspace } from '../helpers/workspace-fixtures.js';

// --no-check: these tests are about what init writes; running the gates once is tests/e2e/init-red-gates.test.ts's.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const read = (path: string) => readFileSync(join(repo.dir, path), 'utf8');
const readJson = (path: string) => JSON.parse(read(path));
const gate = (args: string[], cwd = repo.dir, env: NodeJS.ProcessEnv = repo.env) => runBin(args, { cwd, env: env as Record<string, string> });
const PACKAGE_DIRS = JS_PACKAGES.map((pkg) => pkg.dir).sort();

/** stopgate as `npm i -D stopgate` leaves it at a workspace root: hoisted, with its bin. */
function installGate(r: TempRepo): void {
  mkdirSync(join(r.dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join(PROJECT_ROOT, 'bin', 'gate.cjs'), join(r.dir, 'node_modules', '.bin', 'gate'));
  symlinkSync(PROJECT_ROOT, join(r.dir, 'node_modules', 'stopgate'));
}

/**
 * `gate` on PATH, as `npm i -g stopgate` leaves it (these projects have no local install): init runs
 * the command it writes, and `gate run` must run. Also the repo's own env from now on.
 */
function withGlobalGate(r: TempRepo, base: NodeJS.ProcessEnv = r.env): Record<string, string> {
  const global = join(r.home, 'global-bin');
  mkdirSync(global, { recursive: true });
  writeFileSync(join(global, 'gate'), `#!/bin/sh\nexec "${process.execPath}" "${GATE_BIN}" "$@"\n`, { mode: 0o755 });
  r.env = { ...r.env, PATH: `${global}:${r.env['PATH'] ?? ''}` };
  return { ...(base as Record<string, string>), PATH: `${global}:${base['PATH'] ?? ''}` };
}

// The npm workspace fixture with stopgate installed, after `gate init` with these flags (init ends
// with doctor's delivery probe, a real stop): made once per flags, at the first test that needs it,
// and copied for each.
const initialized = new Map<string, { repo: TempRepo; result: BinResult }>();
afterAll(() => {
  for (const { repo: source } of initialized.values()) source.cleanup();
});
function initializedWorkspace(flags: string[]): BinResult {
  const key = flags.join(' ');
  let made = initialized.get(key);
  if (!made) {
    const source = npmWorkspace();
    installGate(source);
    made = { repo: source, result: runBin(['init', ...flags], { cwd: source.dir, env: source.env }) };
    initialized.set(key, made);
  }
  repo = copyRepo(made.repo);
  return made.result;
}

/** Every file outside .git and node_modules, with its bytes, and every folder: "byte-identical" means this is equal. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        files[`${relative(dir, path)}/`] = '';
        walk(path);
      } else files[relative(dir, path)] = readFileSync(path, 'latin1');
    }
  };
  walk(dir);
  return files;
}

/** Runs a hook entry's command as Claude Code does: /bin/sh, CLAUDE_PROJECT_DIR = the launch directory. */
function runHook(command: string, event: 'Stop' | 'UserPromptSubmit', launchDir: string) {
  return spawnSync('/bin/sh', ['-c', command], { cwd: launchDir, env: { ...repo.env, CLAUDE_PROJECT_DIR: launchDir }, input: hookPayload(event, 'session-1', launchDir), encoding: 'utf8' });
}

describe('gate init at the root of an npm workspace', () => {
  it('writes a config per package with its detected presets, a root config naming the workspace, and says what it left out', () => {
    repo = npmWorkspace();
    installGate(repo);
    const manifest = readJson('package.json');
    repo.write('package.json', `${JSON.stringify({ ...manifest, devDependencies: { eslint: '^9.0.0', vitest: '^3.0.0' } }, null, 2)}\n`);
    repo.write('eslint.config.js', 'export default [];\n');
    repo.write('packages/docs/package.json', '{ "name": "@acme/docs", "version": "1.0.0", "private": true }\n');
    repo.write('packages/custom/package.json', '{ "name": "@acme/custom", "version": "1.0.0", "private": true, "scripts": { "test": "./run-checks.sh" } }\n');
    repo.commit('a root linter, a docs package, a package with its own test script');

    const result = gate(['init', '--yes', '--no-check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/npm workspace with 14 packages\./);
    expect(result.stdout).toMatch(/gate\.config\.json \(root\): "workspaces": "npm" — a stop also runs the packages that depend on a changed one\.\n {2}lint {7}preset eslint: package\.json devDependencies has eslint; eslint\.config\.js is present\n/);
    expect(result.stdout).toMatch(/Note: the root's vitest is left out of the root config: the packages run their own/);
    expect(result.stdout).toMatch(/Note: nothing detected in packages\/docs: no config there; the root config's gates cover its files\./);
    expect(result.stdout).toMatch(/packages\/custom\/gate\.config\.json:\n {2}test {7}npm run test: the package\.json test script \("\.\/run-checks\.sh"\) runs no test runner gate has a preset for/);
    expect(result.stdout).toMatch(/Claude Code reads hooks only from the directory it is started in: \.claude\/settings\.json here gates an agent started at the root, not one started in a package\.\nTo gate an agent started in a package too, run `gate init --each-package` here/);
    for (const dir of [...PACKAGE_DIRS, 'packages/custom']) expect(result.stdout).toContain(`  new     ${dir}/gate.config.json\n`);

    expect(readJson('gate.config.json')).toEqual({ $schema: './node_modules/stopgate/schema.json', maxBlocks: 3, workspaces: 'npm', gates: [{ name: 'lint', preset: 'eslint' }] });
    for (const dir of PACKAGE_DIRS) {
      expect(readJson(`${dir}/gate.config.json`)).toEqual({
        $schema: '../../node_modules/stopgate/schema.json',
        gates: [
          { name: 'test', preset: 'node-test' },
          { name: 'lint', preset: 'eslint' },
        ],
      });
    }
    expect(readJson('packages/custom/gate.config.json').gates).toEqual([
      { name: 'test', run: ['npm', 'run', 'test'] },
      { name: 'lint', preset: 'eslint' },
    ]);
    expect(existsSync(join(repo.dir, 'packages/docs/gate.config.json'))).toBe(false);
    // The hook waits for the longest a stop may take (src/plan/stop-budget.ts): 13 packages' test and
    // lint and the root's lint, 2 at once, would be 13 × (300 + 180) + 180 = 6420 s / 2 + 300 s; past
    // 30 minutes the stop cuts itself. Plus the margin. The spinner names the kinds of check.
    expect(readJson('.claude/settings.json').hooks.Stop[0].hooks[0]).toEqual({
      type: 'command',
      command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run',
      timeout: 1800 + 30,
      statusMessage: 'gate: checking lint, test',
    });

    const again = gate(['init', '--yes', '--no-check']);
    expect(again.stdout).toMatch(/Kept as they are: the configs in /);
    expect(again.stdout).toMatch(/Nothing to change: gate is already installed here\./);
  });

  it('writes the hook that a stop started at the root runs, and it blocks on a dependent broken by a library change', () => {
    expect(initializedWorkspace(['--yes', '--no-check']).code).toBe(0);
    const command = readJson('.claude/settings.json').hooks.Stop[0].hooks[0].command;
    expect(runHook(command, 'UserPromptSubmit', repo.dir).status).toBe(0);
    const broken = breakShared(repo);
    const blocked = runHook(command, 'Stop', repo.dir);
    expect(blocked.status).toBe(2);
    expect(blocked.stderr).toContain(`${broken.gate}`);
    expect(blocked.stderr).toContain(broken.test);
  });

  it('leaves a root config without "workspaces" as it is and writes no package config', () => {
    repo = npmWorkspace();
    installGate(repo);
    repo.write('gate.config.json', '{ "gates": [{ "name": "test", "run": "npm test --workspaces" }] }\n');
    repo.commit('a config from before');
    const result = gate(['init', '--yes', '--no-check']);
    expect(result.stdout).toMatch(/gate\.config\.json has no "workspaces" key, so the packages are left to it and no package config is written\. To gate each package with its own tools, add "workspaces": "npm" to it and run gate init again\./);
    expect(read('gate.config.json')).toBe('{ "gates": [{ "name": "test", "run": "npm test --workspaces" }] }\n');
    expect(repo.git('status', '--porcelain')).toBe('?? .claude/\n');
  });
});

describe('gate init in the other workspace kinds', () => {
  it('pnpm: the same layout, "workspaces": "pnpm", and a package\'s own test script run through pnpm', () => {
    repo = pnpmWorkspace();
    withGlobalGate(repo);
    repo.write('packages/custom/package.json', '{ "name": "@acme/custom", "version": "1.0.0", "scripts": { "test": "tap" } }\n');
    const result = gate(['init', '--yes', '--no-check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/pnpm workspace with 13 packages\./);
    expect(result.stdout).toMatch(/Package manager: pnpm \(package\.json packageManager is pnpm@9\.15\.0\)\./);
    expect(readJson('gate.config.json')).toEqual({ maxBlocks: 3, workspaces: 'pnpm', gates: [] });
    for (const dir of PACKAGE_DIRS) expect(readJson(`${dir}/gate.config.json`)).toEqual({ gates: [{ name: 'test', preset: 'node-test' }] });
    expect(readJson('packages/custom/gate.config.json')).toEqual({ gates: [{ name: 'test', run: ['pnpm', 'run', 'test'] }] });
  });

  it('go.work: a config per module with go test and go vet, and "workspaces": "go" at the root', () => {
    repo = goWorkspace();
    withGlobalGate(repo);
    const result = gate(['init', '--yes', '--no-check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Go workspace \(go\.work\) with 3 modules\./);
    expect(readJson('gate.config.json')).toEqual({ maxBlocks: 3, workspaces: 'go', gates: [] });
    for (const dir of ['api', 'shared', 'tool']) {
      expect(readJson(`${dir}/gate.config.json`)).toEqual({
        gates: [
          { name: 'test', preset: 'go-test' },
          { name: 'lint', preset: 'go-vet' },
        ],
      });
    }
  });

  it.skipIf(!hasTool('cargo'))('cargo: one config at the root, whose presets narrow to the affected crates, and says so', () => {
    repo = cargoWorkspace();
    const env = withGlobalGate(repo, toolEnv(repo.env));
    const result = gate(['init', '--yes', '--each-package', '--no-check'], repo.dir, env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/cargo workspace with 3 crates\./);
    expect(result.stdout).toMatch(/cargo-test and cargo-clippy at the root already run only the crates a change reaches .* so there is one config, at the root\./);
    expect(readJson('gate.config.json')).toEqual({
      maxBlocks: 3,
      gates: [
        { name: 'test', preset: 'cargo-test' },
        { name: 'lint', preset: 'cargo-clippy' },
      ],
    });
    for (const dir of ['app', 'shared', 'tool']) {
      expect(existsSync(join(repo.dir, dir, 'gate.config.json'))).toBe(false);
      expect(readJson(`${dir}/.claude/settings.json`).hooks.Stop[0].hooks[0].command).toBe('gate run');
    }
  });

  it('Turborepo: the turbo presets at the root, over the root\'s own vitest and tsc, and no package config', () => {
    repo = npmWorkspace();
    withGlobalGate(repo);
    const manifest = readJson('package.json');
    repo.write('package.json', `${JSON.stringify({ ...manifest, scripts: { test: 'turbo run test' }, devDependencies: { turbo: '^2.0.0', vitest: '^3.0.0' } }, null, 2)}\n`);
    repo.write('tsconfig.json', '{}\n');
    repo.write('turbo.json', '{\n  // the tasks every package may define\n  "tasks": { "test": {}, "lint": {}, "typecheck": {} }\n}\n');
    const result = gate(['init', '--yes', '--each-package', '--no-check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Turborepo runs each affected package's own tasks, so there is one config, at the root, and none per package\./);
    expect(result.stdout).toMatch(/Note: turbo-test and vitest both present: chose turbo-test, which runs each affected package's own test task\./);
    expect(readJson('gate.config.json')).toEqual({
      maxBlocks: 3,
      gates: [
        { name: 'test', preset: 'turbo-test' },
        { name: 'typecheck', preset: 'turbo-typecheck' },
        { name: 'lint', preset: 'turbo-lint' },
      ],
    });
    for (const dir of PACKAGE_DIRS) {
      expect(existsSync(join(repo.dir, dir, 'gate.config.json'))).toBe(false);
      expect(existsSync(join(repo.dir, dir, '.claude', 'settings.json'))).toBe(true);
    }
  });

  it('Nx: the nx presets at the root only', () => {
    repo = pnpmWorkspace();
    withGlobalGate(repo);
    const manifest = readJson('package.json');
    repo.write('package.json', `${JSON.stringify({ ...manifest, devDependencies: { nx: '^20.0.0', '@nx/vite': '^20.0.0' } }, null, 2)}\n`);
    repo.write('nx.json', `${JSON.stringify({ targetDefaults: { lint: {}, typecheck: {} } }, null, 2)}\n`);
    const result = gate(['init', '--yes', '--no-check']);
    expect(result.stdout).toMatch(/Nx runs each affected package's own tasks, so there is one config, at the root, and none per package\./);
    expect(readJson('gate.config.json').gates).toEqual([
      { name: 'test', preset: 'nx-test' },
      { name: 'typecheck', preset: 'nx-typecheck' },
      { name: 'lint', preset: 'nx-lint' },
    ]);
    expect(repo.git('status', '--porcelain')).toBe(' M package.json\n?? .claude/\n?? gate.config.json\n?? nx.json\n');
  });
});

describe('gate init --each-package, and uninstall', () => {
  it('writes each package\'s settings with a command that works started there; uninstall leaves the repo byte-identical', () => {
    repo = npmWorkspace();
    installGate(repo);
    repo.write('apps/web/.claude/settings.json', '{\n    "permissions": { "allow": ["Bash(npm test)"] }\n}\n');
    repo.commit('web has settings of its own');
    const before = snapshot(repo.dir);

    const result = gate(['init', '--yes', '--each-package', '--no-check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--each-package: each package gets its own \.claude\/settings\.json too, with the hook command "\$CLAUDE_PROJECT_DIR"\/\.\.\/\.\.\/node_modules\/\.bin\/gate run\./);
    for (const dir of PACKAGE_DIRS.filter((dir) => dir !== 'apps/web')) expect(result.stdout).toContain(`  new     ${dir}/.claude/settings.json\n`);
    expect(result.stdout).toContain('  changed apps/web/.claude/settings.json\n');
    const web = read('apps/web/.claude/settings.json');
    expect(web.startsWith('{\n    "permissions": { "allow": ["Bash(npm test)"] },')).toBe(true);
    const command = '"$CLAUDE_PROJECT_DIR"/../../node_modules/.bin/gate run';
    const root = readJson('.claude/settings.json').hooks.Stop[0].hooks[0];
    expect(JSON.parse(web).hooks.Stop[0].hooks[0]).toEqual({ type: 'command', command, timeout: root.timeout, statusMessage: root.statusMessage });

    // Started in apps/web, the agent's stop runs that package's settings' command and is gated by the workspace.
    const launch = join(repo.dir, 'apps', 'web');
    expect(runHook(command, 'UserPromptSubmit', launch).status).toBe(0);
    const broken = breakShared(repo);
    const blocked = runHook(command, 'Stop', launch);
    expect(blocked.status).toBe(2);
    expect(blocked.stderr).toContain(broken.test);
    repo.write('packages/shared/src/index.js', before['packages/shared/src/index.js'] ?? '');
    repo.write('packages/shared/test/index.test.js', before['packages/shared/test/index.test.js'] ?? '');

    const removed = gate(['uninstall', '--yes']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(/Removed gate from these 26 files \(shown above\)\./);
    expect(snapshot(repo.dir)).toEqual(before);
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('undoes a package config edited since init only by its hooks, and keeps the config with a note', () => {
    initializedWorkspace(['--yes', '--each-package', '--no-check']);
    repo.write('apps/api/gate.config.json', '{ "gates": [{ "name": "test", "run": ["node", "--test"] }] }\n');
    const removed = gate(['uninstall', '--yes']);
    expect(removed.stdout).toMatch(/Note: the gate\.config\.json in apps\/api was edited since gate init wrote it, so it is kept/);
    expect(existsSync(join(repo.dir, 'apps/api/gate.config.json'))).toBe(true);
    expect(existsSync(join(repo.dir, 'apps/web/gate.config.json'))).toBe(false);
    expect(existsSync(join(repo.dir, 'apps/api/.claude'))).toBe(false);
  });

  it('without a record (a teammate\'s clone), uninstall still takes gate\'s hooks out of every package\'s settings', () => {
    initializedWorkspace(['--yes', '--each-package', '--no-check']);
    repo.commit('gate, committed');
    const fresh = makeRepo({}, { git: false });
    try {
      // A clone has no .git/gate/ install record.
      spawnSync('git', ['clone', '-q', repo.dir, join(fresh.dir, 'clone')], { env: repo.env });
      const clone = join(fresh.dir, 'clone');
      const removed = runBin(['uninstall', '--yes'], { cwd: clone, env: repo.env });
      expect(removed.code).toBe(0);
      expect(removed.stdout).toMatch(/the gate\.config\.json in apps\/admin, apps\/api, apps\/web, packages\/leaf-a and 8 more were not written by gate init here, so they are kept/);
      for (const dir of PACKAGE_DIRS) expect(JSON.parse(readFileSync(join(clone, dir, '.claude', 'settings.json'), 'utf8'))).toEqual({});
    } finally {
      fresh.cleanup();
    }
  });

  it('refuses --each-package outside a workspace root and for a harness that does not read hooks per directory', () => {
    repo = makeRepo({ 'package.json': '{ "name": "solo" }\n' });
    expect(gate(['init', '--each-package', '--yes', '--no-check'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--each-package works at a workspace root/) });
    expect(gate(['init', '--each-package', '--harness', 'codex'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--each-package is for Claude Code/) });
  });
});

describe('gate doctor in a package directory', () => {
  it('without the package\'s own settings: the stop started there is not gated, and the fix', () => {
    initializedWorkspace(['--yes', '--no-check']);
    const result = gate(['doctor'], join(repo.dir, 'apps', 'web'));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✖ a stop started in .*\/apps\/web is not gated: Claude Code reads hooks only from the directory it is started in, .* Fix: run "gate init --each-package" in .*\/repo, or start the agent in .*\/repo\n/);
    expect(result.stdout).toMatch(/✔ config valid: apps\/web\/gate\.config\.json: test/);
    const atRoot = gate(['doctor']);
    expect(atRoot.code).toBe(0);
    expect(atRoot.stdout).toMatch(/· an agent started in one of the 12 packages is not gated \(Claude Code reads hooks only where it starts\): start the agent here, or run "gate init --each-package"/);
    expect(atRoot.stdout).toMatch(/✔ 12 package configs valid, every program found/);
  });

  it('with them: the stop started there is gated, by which settings and which configs', () => {
    initializedWorkspace(['--yes', '--each-package', '--no-check']);
    repo.write('apps/web/gate.config.json', read('apps/web/gate.config.json').replace('"gates"', '"maxBlocks": 5,\n  "gates"'));
    const result = gate(['doctor'], join(repo.dir, 'apps', 'web'));
    expect(result.stdout).toMatch(/✔ hook command runs from .*\/apps\/web: "\$CLAUDE_PROJECT_DIR"\/\.\.\/\.\.\/node_modules\/\.bin\/gate run/);
    expect(result.stdout).toMatch(/✔ delivery probe: /);
    expect(result.stdout).toMatch(/· apps\/web\/gate\.config\.json sets "maxBlocks", which only the root config decides: ignored/);
    expect(result.stdout).toMatch(/✔ a stop started in .*\/apps\/web is gated: \.claude\/settings\.json runs gate, with the root config gate\.config\.json \("workspaces": "npm"\), and apps\/web\/gate\.config\.json for the files here/);
    expect(result.code).toBe(0);
    expect(gate(['doctor']).stdout).toMatch(/✔ every package of the npm workspace \(12\) has gate's hooks/);
  });
});
