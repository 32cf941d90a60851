import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GATE_BIN, hookPayload, runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// What the hook's environment can do to gate (issue 29 point 5): files its user cannot read, a git
// hook's GIT_DIR, a gate that cannot start under `gate check`.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const root = process.getuid?.() === 0;
const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

describe.skipIf(root && !setpriv)('a file the hook user cannot read', () => {
  // As root every file is readable: the hook then runs as nobody.
  const asHookUser = (args: string[], input: string) => {
    const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' };
    const [command, ...rest] = root ? [setpriv as string, '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, GATE_BIN, ...args] : [process.execPath, GATE_BIN, ...args];
    return spawnSync(command, rest, { cwd: repo.dir, env, input, encoding: 'utf8' });
  };

  it('an edit to it is a change: the gates run (it was invisible: unreadable before and after looked the same)', () => {
    repo = makeRepo({
      // Fails when the file grew; it can stat what it cannot read.
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', run: ['node', '-e', "process.exit(require('fs').statSync('src/secret.js').size > 10 ? 1 : 0)"] }] })}\n`,
      'src/secret.js': 'a\n',
    });
    repo.commit('initial');
    chmodSync(join(repo.dir, 'src/secret.js'), 0o000);
    if (root) openUp(repo.dir);
    expect(asHookUser(['run'], hookPayload('UserPromptSubmit', 's1', repo.dir)).status).toBe(0);
    chmodSync(join(repo.dir, 'src/secret.js'), 0o600);
    repo.write('src/secret.js', 'a\nand a good deal more\n');
    chmodSync(join(repo.dir, 'src/secret.js'), 0o000);
    const result = asHookUser(['run'], hookPayload('Stop', 's1', repo.dir));
    expect(result.stderr).toMatch(/^gate: 1 of 1 checks failed \(test\)/);
    expect(result.status).toBe(2);
  });
});

/** Lets another user into the temp repo (mkdtemp made its folder owner-only). */
function openUp(dir: string): void {
  chmodSync(dirname(dir), 0o755);
  const walk = (path: string) => {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      chmodSync(path, 0o777);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if ((stats.mode & 0o777) !== 0) chmodSync(path, 0o666 | (stats.mode & 0o111));
  };
  walk(dir);
}

describe("a git hook's GIT_DIR in the hook's environment", () => {
  it("does not reach the gates: a test suite's own git repositories stay its own", () => {
    repo = makeRepo({
      // A gate that makes a scratch repository, as test suites do, and fails when git put it elsewhere.
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', run: 'rm -rf scratch && mkdir scratch && cd scratch && git init -q && test -d .git', shell: true }] })}\n`,
      '.gitignore': 'scratch/\n',
      'src/a.js': 'a\n',
    });
    repo.commit('initial');
    repo.write('src/a.js', 'b\n');
    const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, GIT_DIR: join(repo.dir, '.git'), GIT_WORK_TREE: repo.dir };
    const result = runBin(['run'], { cwd: repo.dir, env, input: hookPayload('Stop', 's1', repo.dir) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(existsSync(join(repo.dir, 'scratch', '.git'))).toBe(true);
  });
});

describe('gate check', () => {
  it('exits 1 when a gate could not start: no verdict is not a pass', () => {
    repo = makeRepo({ 'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', run: ['no-such-program-here'] }] })}\n`, 'src/a.js': 'a\n' });
    repo.commit('initial');
    const result = runBin(['check', '--all'], { cwd: repo.dir, env: repo.env });
    expect(result.stdout).toMatch(/test: .*"no-such-program-here" was not found/);
    expect(result.code).toBe(1);
  });
});

describe('TMPDIR missing', () => {
  const RED_TEST = "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\ntest('knows the answer', () => assert.equal(41, 42));\n";
  const redAtStart = () => {
    repo = makeRepo({
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', run: ['node', '--test'], filter: 'node-test' }] })}\n`,
      'package.json': '{ "type": "module" }\n',
      'src/index.js': 'export const answer = 41;\n',
      'test/answer.test.js': RED_TEST,
      '.gitignore': 'node_modules\n',
    }, { nodeModules: 'with-gate' });
    repo.commit('initial');
  };

  it('doctor reports it with the fix, and goes on with its other findings (it aborted with exit 70)', () => {
    redAtStart();
    expect(runBin(['init', '--yes', '--no-check'], { cwd: repo.dir, env: repo.env }).code).toBe(0);
    const result = runBin(['doctor'], { cwd: repo.dir, env: { ...repo.env, TMPDIR: join(repo.dir, 'no-such-folder') } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✖ no temp folder \(TMPDIR .*no-such-folder\): ENOENT.*set TMPDIR to a writable folder/);
    expect(result.stdout).toMatch(/✔ config valid: test/);
  });

  it("a stop whose baseline check has no temp folder counts the failure as new and says why (it crashed, and the stop was let through)", () => {
    redAtStart();
    const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, TMPDIR: join(repo.dir, 'no-such-folder') };
    runBin(['run'], { cwd: repo.dir, env, input: hookPayload('UserPromptSubmit', 's1', repo.dir) });
    repo.write('src/index.js', 'export const answer = 41; // unchanged behaviour\n');
    const result = runBin(['run'], { cwd: repo.dir, env, input: hookPayload('Stop', 's1', repo.dir) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Could not tell which failures were there before this turn \(no temp folder for the baseline copy \(ENOENT.*\); set TMPDIR to a writable folder\): each counts as new/);
  });
});

describe('configs JSON.parse lets pass', () => {
  const check = (config: string | undefined) => {
    repo = makeRepo({ 'src/a.js': 'a\n' });
    if (config === undefined) mkdirSync(join(repo.dir, 'gate.config.json'));
    else repo.write('gate.config.json', config);
    return runBin(['check', '--all'], { cwd: repo.dir, env: repo.env });
  };

  it('a key twice in one object: each named, with both places (the last silently won)', () => {
    const result = check('{ "maxBlocks": 3,\n  "gates": [{ "name": "test", "run": "true", "name": "lint" }],\n  "maxBlocks": 5 }\n');
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('gate.config.json: gates[0].name: is set twice in the same object (line 2, column 15 and line 2, column 46); JSON keeps only the last, so remove one');
    expect(result.stderr).toContain('gate.config.json: maxBlocks: is set twice in the same object (line 1, column 3 and line 3, column 3)');
  });

  it('nested 200,000 levels deep: a config error, exit 3 (it overflowed the stack: an internal error, exit 70)', () => {
    const result = check(`{"gates":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/gate\.config\.json: is nested more than 64 levels deep \(line 1, column \d+\)/);
  });

  it('a gate.config.json that is a directory: said so, exit 3 (it was silently "not set up")', () => {
    const result = check(undefined);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('gate.config.json: cannot be read: it is a directory, not a file; make it a readable file, or remove it');
  });
});
