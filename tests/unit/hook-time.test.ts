import { describe, expect, it } from 'vitest';
import { gatesDeadline, gitLimitAt, spentByGit } from '../../src/plan/hook-time.js';

// Issue 38 point 7: slow git before the gates spends the hook's margin, not a gate's timeout.
describe("a stop's time", () => {
  const hookStart = 1_000_000;

  it('gives the gates their budget from when they begin, with 5 s of slack', () => {
    expect(gatesDeadline({ hookStart, gatesStart: hookStart + 300, budgetMs: 5000, hookTimeoutSeconds: 35 })).toBe(hookStart + 300 + 5000 + 5000);
  });

  it('after 12 s of git, a 5 s gate still gets its 5 s within the 35 s hook', () => {
    const deadline = gatesDeadline({ hookStart, gatesStart: hookStart + 12_000, budgetMs: 5000, hookTimeoutSeconds: 35 });
    expect(deadline - (hookStart + 12_000)).toBeGreaterThanOrEqual(5000);
  });

  it('never past the hook timeout less 10 s, to kill the gates, judge and report', () => {
    expect(gatesDeadline({ hookStart, gatesStart: hookStart + 28_000, budgetMs: 5000, hookTimeoutSeconds: 35 })).toBe(hookStart + 25_000);
  });

  it('ends git 2 s before the hook timeout, to say why', () => {
    expect(gitLimitAt(hookStart, 4)).toBe(hookStart + 2000);
  });

  it('names git as what spent the time only when git took a noticeable part', () => {
    expect(spentByGit(12_400)).toBe("the hook's timeout was spent by git (12.4 s)");
    expect(spentByGit(120)).toBeUndefined();
  });
});
