import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 31 point 3: what a stop's baseline check costs — none when the turn starts from a tree the
// gates passed on (a person committed it), and the checks side by side when several gates need one.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const lastStop = (r: TempRepo) => readStopRecords(join(r.dir, '.git', 'gate')).at(-1);
const TEST_HEAD = "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n";

describe('a baseline the gates passed on, by content', () => {
  const project = () => {
    const made = makeRepo({
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', run: ['node', '--test'], filter: 'node-test' }] })}\n`,
      'package.json': '{ "type": "module" }\n',
      'src/index.js': 'export const answer = 41;\n',
      'test/answer.test.js': `${TEST_HEAD}import { answer } from '../src/index.js';\ntest('knows the answer', () => assert.equal(answer, 42));\n`,
    });
    made.commit('initial: red');
    return made;
  };

  it('after a person commits what just passed, a break is judged without running a copy of that commit', () => {
    repo = project();
    promptStart(repo, 's1');
    repo.write('src/index.js', 'export const answer = 42;\n');
    expect(stop(repo, 's1').code).toBe(0);
    repo.commit('the fix that passed');
    promptStart(repo, 's2');
    repo.write('src/index.js', 'export const answer = 43;\n');
    const result = stop(repo, 's2');
    expect(result.code).toBe(2);
    expect(lastStop(repo)?.gates[0]).toMatchObject({ name: 'test', status: 'failed' });
    expect(lastStop(repo)?.gates[0]?.baselineMs).toBeUndefined();
  });

  it('a commit with other content than the tree that passed still gets its copy run', () => {
    repo = project();
    promptStart(repo, 's1');
    repo.write('src/index.js', 'export const answer = 42;\n');
    expect(stop(repo, 's1').code).toBe(0);
    repo.write('src/index.js', 'export const answer = 41;\n');
    repo.write('README.md', 'committed instead of the fix\n');
    repo.commit('not what passed');
    promptStart(repo, 's2');
    repo.write('src/other.js', 'export const other = 1;\n');
    const result = stop(repo, 's2');
    // Red before the turn, so not blocking: known only from the copy's run.
    expect(result.code).toBe(0);
    expect(lastStop(repo)?.gates[0]?.baselineMs).toBeGreaterThan(0);
    expect(runBin(['log', '-n', '1'], { cwd: repo.dir, env: repo.env }).code).toBe(0);
  });
});

describe('several gates that need a baseline check', () => {
  // Each gate's test waits (up to 10 s) for the other gate's run to start (in the work tree, or in a
  // copy of the baseline: each check has its own): run
  // side by side both fail as "together", one after another as "alone" — a new failure, a block.
  const rendezvous = (me: string, other: string) =>
    `${TEST_HEAD}import { existsSync, mkdirSync, writeFileSync } from 'node:fs';\nimport { join } from 'node:path';\n` +
    `const dir = join(process.env.MARKS, process.cwd() === process.env.TREE ? 'tree' : 'copy');\nmkdirSync(dir, { recursive: true });\nwriteFileSync(join(dir, '${me}'), '');\n` +
    `let met = false;\nfor (const end = Date.now() + 10_000; Date.now() < end && !met; ) { met = existsSync(join(dir, '${other}')); if (!met) await new Promise((r) => setTimeout(r, 50)); }\n` +
    `test(met ? 'together' : 'alone', () => assert.fail('red before the turn'));\n`;

  it('run side by side, as the gates did', () => {
    repo = makeRepo({
      'gate.config.json': `${JSON.stringify({ concurrency: 2, gates: [{ name: 'a', run: ['node', '--test', 'checks/a.test.js'], filter: 'node-test' }, { name: 'b', run: ['node', '--test', 'checks/b.test.js'], filter: 'node-test' }] })}\n`,
      'package.json': '{ "type": "module" }\n',
      'checks/a.test.js': rendezvous('a', 'b'),
      'checks/b.test.js': rendezvous('b', 'a'),
    });
    repo.commit('initial: both red');
    const env = { ...repo.env, MARKS: join(repo.home, 'marks'), TREE: repo.dir };
    const marked = { dir: repo.dir, env };
    promptStart(marked);
    repo.write('README.md', 'a change both gates look at\n');
    const result = stop(marked);
    expect(result.stdout).toMatch(/a, b still failing, but only with failures from before this turn/);
    expect(result.code).toBe(0);
    expect(lastStop(repo)?.gates.map((gate) => gate.baselineMs !== undefined)).toEqual([true, true]);
  });
});
