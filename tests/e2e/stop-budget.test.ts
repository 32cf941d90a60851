import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// A stop keeps to its time budget (src/plan/stop-budget.ts: for one gate, its timeout), so the hook's
// timeout, sized by the same budget, never ends it silently. What the budget cuts is said, and a
// failure whose baseline check had no time left counts as new.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const RED_TEST = "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\ntest('knows the answer', () => assert.equal(41, 42));\n";

// The baseline commit has a SLOW file that makes the gate's run there sleep 6 s; the turn deletes it,
// so the turn's own run is quick and only the baseline check can run out of time.
function alreadyRed(timeout: number): TempRepo {
  return makeRepo({
    'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', run: 'sleep "$(cat SLOW 2>/dev/null || echo 0)" && node --test', shell: true, filter: 'node-test', timeout }] })}\n`,
    'package.json': '{ "type": "module" }\n',
    SLOW: '6\n',
    'src/index.js': 'export const answer = 41;\n',
    'test/answer.test.js': RED_TEST,
  });
}

describe("a stop's time budget", () => {
  it('with time left, an old failure is found old by the baseline check and the stop is allowed', () => {
    repo = alreadyRed(30);
    promptStart(repo);
    repo.remove('SLOW');
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/only with failures from before this turn/);
  });

  it('when the baseline check needs more than the stop has left, it is cut and the failure counts as new', () => {
    repo = alreadyRed(4);
    promptStart(repo);
    repo.remove('SLOW');
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('knows the answer');
    expect(result.stderr).not.toMatch(/Already failing before this turn/);
    expect(result.stderr).toMatch(/Could not tell which failures were there before this turn \(its run on the baseline was killed after [0-3] s \(its 4 s cut to what was left of the stop's time\)\): each counts as new/);
  });
});
