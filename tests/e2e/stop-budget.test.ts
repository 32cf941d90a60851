import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// A stop keeps to its time budget (src/plan/stop-budget.ts: for one gate, its timeout), so the hook's
// timeout, sized by the same budget, never ends it silently. What the budget cuts is said, and a
// failure whose baseline check had no time left counts as new.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const RED_TEST = "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\ntest('knows the answer', () => assert.equal(41, 42));\n";

// The gate sleeps as long as the SLOW file says: the baseline commit's copy sleeps what the commit
// says, the turn's run what the turn writes. A stop's time is its gates' budget (one gate: its
// timeout) plus 5 s from the hook's start.
function alreadyRed(timeout: number, slowAtBaseline: number): TempRepo {
  return makeRepo({
    'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', run: 'sleep "$(cat SLOW 2>/dev/null || echo 0)" && node --test', shell: true, filter: 'node-test', timeout }] })}\n`,
    'package.json': '{ "type": "module" }\n',
    SLOW: `${slowAtBaseline}\n`,
    'src/index.js': 'export const answer = 41;\n',
    'test/answer.test.js': RED_TEST,
  });
}

describe("a stop's time budget", () => {
  it('with time left, an old failure is found old by the baseline check and the stop is allowed', () => {
    repo = alreadyRed(30, 2);
    promptStart(repo);
    repo.remove('SLOW');
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/only with failures from before this turn/);
  });

  it('when the baseline check needs more than the stop has left, it is cut and the failure counts as new', () => {
    // 10 s budget + 5: the turn's run takes 7, the copy's would take 30 and gets what is left.
    repo = alreadyRed(10, 30);
    promptStart(repo);
    repo.write('SLOW', '7\n');
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('knows the answer');
    expect(result.stderr).not.toMatch(/Already failing before this turn/);
    expect(result.stderr).toMatch(/Could not tell which failures were there before this turn \(its run on the baseline was killed after [0-9] s \(its 10 s cut to what was left of the stop's time\)\): each counts as new/);
  });
});
