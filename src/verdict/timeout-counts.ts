import type { OnTimeout } from '../config/defaults.js';
import type { GateResult } from '../runner/gate-result.js';

/**
 * Whether a gate that timed out counts against the change. "once": a test the turn made hang or loop
 * looks like any timeout, so it counts as new — unless the gate also timed out at its previous run
 * (`timedOutBefore`: too slow for its timeout, or a hang the agent has already been told of), or
 * it never started for lack of the stop's time. Outside a stop (`gate check`) "once" is "block".
 */
export function timeoutCounts(result: GateResult, onTimeout: OnTimeout, timedOutBefore: ReadonlySet<string> = new Set()): boolean {
  if (result.status !== 'timed-out' || onTimeout === 'allow') return false;
  if (onTimeout === 'block') return true;
  return result.outOfTime !== true && !timedOutBefore.has(result.name);
}
