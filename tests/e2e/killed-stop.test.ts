import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning } from '../helpers/processes.js';
import { stopSignalledWhen } from '../helpers/run-async.js';
import { GATE_BIN, hookPayload, promptStart, runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { hasTool, toolEnv, toolPath } from '../helpers/tools.js';

// Issue 25, point 7: a harness whose hook timeout is shorter than the gates kills `gate run`
// mid-stop. The stop must leave a record, so `gate verdict` says "unchecked" (exit 1) and names
// the fix, instead of "none … is it installed" (exit 2).

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const slowGate = { name: 'slow', run: ['node', '-e', 'setTimeout(() => {}, 60000)'], on: ['**/*.js'] };
const quickGate = { name: 'quick', run: ['node', '-e', '0'], on: ['**/*.js'] };

/** The stop's running record names `slow` as started: the gate is running. */
function slowIsRunning(): boolean {
  const dir = join(repo.dir, '.git', 'gate', 'running');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  return names.some((name) => {
    try {
      const record = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { gates: Array<{ name: string; endedAt?: number }> };
      return record.gates.some((gate) => gate.name === 'slow' && gate.endedAt === undefined);
    } catch {
      return false; // Being written.
    }
  });
}

describe('a stop killed by the harness', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('is recorded as killed (%s): gate verdict says unchecked and how to fix it, gate log shows it', async (signal) => {
    repo = makeRepo({ 'gate.config.json': JSON.stringify({ concurrency: 1, gates: [quickGate, slowGate] }), 'a.js': 'module.exports = 1;\n' });
    promptStart(repo, 'killed');
    repo.write('a.js', 'module.exports = 2;\n');
    const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir };
    const done = await stopSignalledWhen(GATE_BIN, { cwd: repo.dir, env, input: hookPayload('Stop', 'killed', repo.dir) }, () => slowIsRunning(), signal);
    expect(done.sent).toBe(true);
    expect(done.code).toBe(signal === 'SIGINT' ? 130 : 143);

    const verdict = runBin(['verdict'], { cwd: repo.dir, env: repo.env });
    expect(verdict.code, verdict.stdout).toBe(1);
    expect(verdict.stdout).toMatch(
      new RegExp(
        `^fail: session killed, last stop \\S+ \\(claude\\): the last stop was killed \\(${signal}\\) after \\d+(\\.\\d)? s while slow ran, so it was let through unchecked: is the hook's timeout shorter than the gates\\? Raise the "timeout" \\(seconds\\) of gate's Stop hook in \\.claude/settings\\.json above the gates' total \\("gate doctor" checks it\\)\\.\\ngates: quick passed\\n$`,
      ),
    );
    expect(JSON.parse(runBin(['verdict', '--json'], { cwd: repo.dir, env: repo.env }).stdout)).toMatchObject({ verdict: 'fail', kind: 'unchecked' });
    const log = runBin(['log'], { cwd: repo.dir, env: repo.env }).stdout.trim().split('\n').at(-1);
    expect(log).toMatch(new RegExp(`  error  checked +\\S+  killed by ${signal}; 1 changed: a\\.js; gates: quick passed \\S+; running when killed: slow$`));
    // Cleaned up: no running record or stop lock left behind.
    expect(readdirSync(join(repo.dir, '.git', 'gate', 'running'))).toEqual([]);
    expect(readdirSync(join(repo.dir, '.git', 'gate', 'sessions')).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });
});

/** A repository whose test gate fails on the turn's edit and on its start: the stop checks a copy of the start. */
function pytestRepo(conftest: string): TempRepo {
  return makeRepo({
      '.gitignore': '__pycache__/\n',
      'gate.config.json': JSON.stringify({ gates: [{ name: 'test', preset: 'pytest' }] }),
      'shop.py': 'def add(a, b):\n    return a + b\n',
      'test_shop.py': 'from shop import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_old():\n    assert add(2, 2) == 5\n',
      'conftest.py': conftest,
  });
}

describe.skipIf(!hasTool('pytest'))('a stop killed while it checks failures on a copy of the starting commit', () => {
  it('removes the copy from the temp folder on its way out', async () => {
    // Slow only in the copy: the stop is still checking which failures are old when it is killed.
    repo = pytestRepo('import os\nimport time\n\nif "gate-baseline-" in os.getcwd():\n    time.sleep(60)\n');
    const tmp = join(repo.home, 'tmp');
    mkdirSync(tmp);
    const env = { ...toolEnv(repo.env), TMPDIR: tmp, CLAUDE_PROJECT_DIR: repo.dir } as Record<string, string>;
    repo.write('shop.py', 'def add(a, b):\n    return a - b\n');
    const copies = () => readdirSync(tmp).filter((name) => name.startsWith('gate-baseline-'));
    const done = await stopSignalledWhen(GATE_BIN, { cwd: repo.dir, env, input: hookPayload('Stop', 'killed', repo.dir) }, () => copies().length > 0, 'SIGTERM');
    expect(done.sent).toBe(true);
    expect(done.code).toBe(143);
    expect(copies()).toEqual([]);
  });

  it('stops the git that checks the copy out before it removes the copy: nothing writes the copy again after gate has gone', async () => {
    repo = pytestRepo('');
    const tmp = join(repo.home, 'tmp');
    mkdirSync(tmp);
    // A checkout that takes a while (a big repository): this git reports its pid, then waits before it writes.
    const bin = join(repo.home, 'slow-git');
    mkdirSync(bin);
    const pidFile = join(repo.home, 'checkout.pid');
    const realGit = toolPath('git') ?? 'git';
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nfor arg; do\n  if [ "$arg" = checkout-index ]; then echo $$ > '${pidFile}'; sleep 5; fi\ndone\nexec '${realGit}' "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const base = toolEnv(repo.env);
    const env = { ...base, PATH: `${bin}${delimiter}${base['PATH']}`, TMPDIR: tmp, CLAUDE_PROJECT_DIR: repo.dir } as Record<string, string>;
    repo.write('shop.py', 'def add(a, b):\n    return a - b\n');
    const done = await stopSignalledWhen(GATE_BIN, { cwd: repo.dir, env, input: hookPayload('Stop', 'killed', repo.dir) }, () => existsSync(pidFile), 'SIGTERM');
    expect(done.sent).toBe(true);
    expect(done.code).toBe(143);
    const checkout = Number(readFileSync(pidFile, 'utf8'));
    // Dead before gate went (a zombie until something reaps the orphan): no git is left to write the copy back.
    expect(isRunning(checkout)).toBe(false);
    expect(readdirSync(tmp).filter((name) => name.startsWith('gate-baseline-'))).toEqual([]);
  });
});
