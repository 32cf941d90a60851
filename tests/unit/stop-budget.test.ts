import { describe, expect, it } from 'vitest';
import { ASSUMED_CONCURRENCY, LONGEST_STOP_SECONDS, stopBudgetSeconds } from '../../src/plan/stop-budget.js';

const gates = (...timeouts: number[]) => timeouts.map((timeoutSeconds) => ({ timeoutSeconds, retries: 0 }));

describe('the longest a stop may take', () => {
  it('a few gates: their timeouts one after another, as before (never more)', () => {
    expect(stopBudgetSeconds(gates(300, 120, 120), undefined)).toBe(540);
    expect(stopBudgetSeconds(gates(300), undefined)).toBe(300);
    expect(stopBudgetSeconds([], undefined)).toBe(0);
  });

  it('many gates: what runs at once (Σ/c + the longest), 2 at once unless the config says, capped at 30 minutes', () => {
    expect(ASSUMED_CONCURRENCY).toBe(2);
    // 20 gates of 60 s: 1200 s one after another, 600 + 60 two at once, 150 + 60 eight at once.
    expect(stopBudgetSeconds(gates(...Array(20).fill(60)), undefined)).toBe(660);
    expect(stopBudgetSeconds(gates(...Array(20).fill(60)), 8)).toBe(210);
    expect(stopBudgetSeconds(gates(...Array(20).fill(60)), 1)).toBe(1200);
    // urql as init wrote it: 57 gates, 13,110 s summed.
    expect(stopBudgetSeconds(gates(...Array(19).fill(300), ...Array(38).fill(195)), undefined)).toBe(LONGEST_STOP_SECONDS);
  });

  it("a gate's retries count, and one gate's own long timeout is never cut by the cap", () => {
    expect(stopBudgetSeconds([{ timeoutSeconds: 100, retries: 2 }], undefined)).toBe(300);
    expect(stopBudgetSeconds(gates(3600, 60), undefined)).toBe(3600);
  });

  it('never more for fewer of the same gates (a stop involves a subset of what init sized the hook for)', () => {
    const all = gates(300, 200, 100, 50, 50, 25);
    for (let n = 1; n < all.length; n++) {
      for (const c of [undefined, 1, 3, 8]) expect(stopBudgetSeconds(all.slice(0, n), c)).toBeLessThanOrEqual(stopBudgetSeconds(all, c));
    }
  });
});
