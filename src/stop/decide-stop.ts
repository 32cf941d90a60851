// The stop's decision from its gates' results, and the stop log's words for it.
import type { OnTimeout } from '../config/defaults.js';
import type { GateResult } from '../runner/gate-result.js';
import { timeoutCounts } from '../verdict/timeout-counts.js';

export type StopDecision =
  | { kind: 'allow'; passed: boolean; noVerdict: GateResult[]; preExisting: GateResult[] }
  | { kind: 'block'; failed: GateResult[]; noVerdict: GateResult[]; preExisting: GateResult[] }
  | { kind: 'escape'; failed: GateResult[]; noVerdict: GateResult[]; preExisting: GateResult[] };

/**
 * The verdict of one stop from its gates' results: only failures block (timeouts as `timeoutCounts`
 * says) — not a gate whose failures were all there before the turn
 * (`preExistingOnly`) — and not once the session has been blocked `maxBlocks` times in a row.
 * `alsoBlock` (tampering, with `"tamper": "block"`) blocks when nothing failed.
 */
export function decideStop(
  results: GateResult[],
  blocksSoFar: number,
  maxBlocks: number,
  onTimeout: OnTimeout,
  preExistingOnly: ReadonlySet<string> = new Set(),
  alsoBlock = false,
  timedOutBefore: ReadonlySet<string> = new Set(),
): StopDecision {
  const counts = (result: GateResult) => result.status === 'failed' || timeoutCounts(result, onTimeout, timedOutBefore);
  const red = results.filter(counts);
  const preExisting = red.filter((result) => preExistingOnly.has(result.name));
  const failed = red.filter((result) => !preExistingOnly.has(result.name));
  const noVerdict = results.filter((result) => result.status === 'not-started' || (result.status === 'timed-out' && !counts(result)));
  if (failed.length === 0 && !alsoBlock) return { kind: 'allow', passed: noVerdict.length === 0 && preExisting.length === 0, noVerdict, preExisting };
  if (blocksSoFar >= maxBlocks) return { kind: 'escape', failed, noVerdict, preExisting };
  return { kind: 'block', failed, noVerdict, preExisting };
}

/** The stop log's short words for a decision (docs/log-and-stats.md). */
export function decisionReason(decision: StopDecision, gatesRun: number, tampered: boolean, blocksBefore: number): string {
  if (decision.kind === 'escape') return `let through after ${blocksBefore} blocks`;
  if (decision.kind === 'block') return decision.failed.length > 0 ? 'failed' : 'tampering';
  if (decision.preExisting.length > 0) return 'pre-existing failures only';
  if (gatesRun === 0) return tampered ? 'no gate triggered; tampering reported' : 'no gate triggered';
  return decision.passed ? 'all passed' : 'no verdict';
}
