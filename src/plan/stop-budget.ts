/** What the budget reads of a gate. */
export interface TimedGate {
  timeoutSeconds: number;
  retries: number;
}

/** Gates at once when the config does not say (gate runs one per CPU): the fewest a developer's machine has. */
export const ASSUMED_CONCURRENCY = 2;

/** Past this a stop is cut and the human told what did not finish, unless one gate's own timeout is longer. */
export const LONGEST_STOP_SECONDS = 1800;

/**
 * The longest a stop with these gates may take, in seconds: `concurrency` at once, each to its
 * timeout and retries, which a greedy schedule finishes within Σ/c + the longest (and never past
 * Σ, one after another); capped at 30 minutes. The stop keeps to it — each gate's timeout is cut to
 * what is left (src/runner/run-gate.ts), and a baseline check with no time left counts a failure as
 * new — so a hook timeout above it never ends a stop silently. Never more for fewer gates.
 */
export function stopBudgetSeconds(gates: readonly TimedGate[], concurrency: number | undefined): number {
  if (gates.length === 0) return 0;
  const each = gates.map((gate) => gate.timeoutSeconds * (1 + gate.retries));
  const total = each.reduce((sum, seconds) => sum + seconds, 0);
  const longest = Math.max(...each);
  const atOnce = Math.max(1, concurrency ?? ASSUMED_CONCURRENCY);
  return Math.min(total, Math.ceil(total / atOnce) + longest, Math.max(LONGEST_STOP_SECONDS, longest));
}
