import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { hasTool, toolEnv } from '../helpers/tools.js';

// Issue 37: the start's failures are gathered while the agent works — the prompt hook starts a
// background run of every gate on a copy of the start — so that a blocked stop costs about what a
// passing one does. A stop that comes first ends the gathering and checks the start itself.

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

const TEST_HEAD = "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n";
const lastStop = (r: TempRepo) => readStopRecords(join(r.dir, '.git', 'gate')).at(-1);
const pidFile = (r: TempRepo) => join(r.dir, '.git', 'gate', 'evidence', 'session-1.pid');

/** A red node:test project; its old test waits HOLD_MS, which only the gathering's environment sets. */
function project(): TempRepo {
  const made = makeRepo({
    'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', run: ['node', '--test', '--test-reporter=spec'], filter: 'node-test', on: ['**'] }] })}\n`,
    'package.json': '{ "type": "module" }\n',
    'src/index.js': 'export const answer = 41;\nexport const sum = (a, b) => a + b;\n',
    'test/old.test.js': `${TEST_HEAD}import { answer } from '../src/index.js';\ntest('knows the answer', async () => {\n  await new Promise((done) => setTimeout(done, Number(process.env.HOLD_MS ?? 0)));\n  assert.equal(answer, 42);\n});\n`,
    'test/sum.test.js': `${TEST_HEAD}import { sum } from '../src/index.js';\ntest('adds', () => assert.equal(sum(1, 2), 3));\n`,
  });
  made.env['GATE_EVIDENCE'] = '1';
  return made;
}

/** Running, not a zombie waiting for its parent to read its status. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('the start\'s evidence, gathered while the agent works', () => {
  it('done before the stop: the block knows the old failure without running a copy', async () => {
    repo = project();
    expect(promptStart(repo).code).toBe(0);
    const r = repo;
    await until(() => !existsSync(pidFile(r)), 30_000);
    const memory = readFileSync(join(repo.dir, '.git', 'gate', 'failures-v2.json'), 'utf8');
    expect(memory).toContain('test/old.test.js > knows the answer');
    repo.write('src/index.js', 'export const answer = 41;\nexport const sum = (a, b) => a - b;\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('Already failing before this turn (not caused by this change): test/old.test.js > knows the answer.');
    expect(lastStop(repo)?.gates[0]?.baselineMs).toBeUndefined();
  });

  it('still at work when the stop comes: the stop ends it and checks the start itself', async () => {
    repo = project();
    expect(promptStart({ dir: repo.dir, env: { ...repo.env, HOLD_MS: '60000' } }).code).toBe(0);
    const pid = Number(readFileSync(pidFile(repo), 'utf8'));
    expect(running(pid)).toBe(true);
    repo.write('src/index.js', 'export const answer = 41;\nexport const sum = (a, b) => a - b;\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    await until(() => !running(pid), 5_000);
    expect(blocked.stderr).toContain('Already failing before this turn (not caused by this change): test/old.test.js > knows the answer.');
    expect(lastStop(repo)?.gates[0]?.baselineMs).toBeGreaterThan(0);
  }, 60_000);

  it('a start that passed only a narrowed run is still gathered: its other failures are known at the stop', async () => {
    repo = project();
    repo.write('gate.config.json', `${JSON.stringify({ gates: [{ name: 'test', preset: 'node-test' }] })}\n`);
    repo.write('src/sum.js', 'export const sum = (a, b) => a + b;\n');
    repo.write('test/sum.test.js', `${TEST_HEAD}import { sum } from '../src/sum.js';\ntest('adds', () => assert.equal(sum(1, 2), 3));\n`);
    repo.write('test/twice.test.js', `${TEST_HEAD}import { twice } from '../src/index.js';\ntest('twice', () => assert.equal(twice(2), 4));\n`);
    repo.write('src/index.js', 'export const answer = 41;\nexport const twice = (a) => a * 2;\n');
    repo.commit('a module of its own, and old.test.js red');
    // Turn 1 passes by running sum.test.js alone: old.test.js's failure is not in that pass.
    expect(promptStart(repo).code).toBe(0);
    repo.write('src/sum.js', 'export const sum = (a, b) => b + a;\n');
    expect(stop(repo).code).toBe(0);
    expect(lastStop(repo)?.gates[0]?.tier).toBe('1 test file that imports src/sum.js');
    // Turn 2 starts on that tree: the gathering runs the test gate in full on it.
    expect(promptStart(repo).code).toBe(0);
    const r = repo;
    await until(() => !existsSync(pidFile(r)), 30_000);
    repo.write('src/index.js', 'export const answer = 41;\nexport const twice = (a) => a * 3;\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('Already failing before this turn (not caused by this change): test/old.test.js > knows the answer.');
    expect(lastStop(repo)?.gates[0]?.baselineMs).toBeUndefined();
  }, 60_000);

  it('a question-only turn: its stop, which runs nothing, still ends the gathering', () => {
    repo = project();
    expect(promptStart({ dir: repo.dir, env: { ...repo.env, HOLD_MS: '60000' } }).code).toBe(0);
    const pid = Number(readFileSync(pidFile(repo), 'utf8'));
    expect(running(pid)).toBe(true);
    const allowed = stop(repo);
    expect(allowed.code).toBe(0);
    expect(lastStop(repo)?.reason).toBe('no change');
    expect(running(pid)).toBe(false);
    expect(existsSync(pidFile(repo))).toBe(false);
  });

  it.skipIf(!hasTool('pytest'))("a pytest gate: after the start's failures, its coverage record of the start, under the work tree's paths", async () => {
    repo = makeRepo({
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', preset: 'pytest' }] })}\n`,
      'pyproject.toml': '[tool.pytest.ini_options]\npythonpath = ["."]\n',
      'calc.py': 'def add(a, b):\n    return a + b\n\n\ndef answer():\n    return 42\n',
      'tests/test_add.py': 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
      'tests/test_answer.py': 'from calc import answer\n\n\ndef test_answer():\n    assert answer() == 42\n',
    });
    repo.env['GATE_EVIDENCE'] = '1';
    repo.env['PATH'] = toolEnv(repo.env)['PATH'] ?? '';
    expect(promptStart(repo).code).toBe(0);
    const r = repo;
    await until(() => !existsSync(pidFile(r)), 60_000);
    const memory = JSON.parse(readFileSync(join(repo.dir, '.git', 'gate', 'failures-v2.json'), 'utf8'));
    expect(memory.map((entry: { gates: Record<string, unknown> }) => entry.gates['test'])).toEqual([[]]);
    const record = JSON.parse(readFileSync(join(repo.dir, '.git', 'gate', 'cache', 'test', 'coverage-record.json'), 'utf8'));
    const calc = join(repo.dir, 'calc.py');
    expect(record.tests[join(repo.dir, 'tests/test_add.py')].loaded[calc].called).toEqual(['add']);
    // The stop narrows by it: a change inside add() runs test_add alone.
    repo.write('calc.py', 'def add(a, b):\n    return a - b\n\n\ndef answer():\n    return 42\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(lastStop(repo)?.gates[0]?.tier).toMatch(/1 of 2 test files: 1 executed add\(\) in calc\.py/);
  }, 90_000);
});
