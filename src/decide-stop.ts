import type { GateResult } from './runner/gate-result.js';

/** What a gate that timed out means (docs/configuration.md): never a verdict, always a failure, or a failure once in a row. */
export type OnTimeout = 'allow' | 'block' | 'once';

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

export function describeOutcome(result: GateResult): string {
  if (result.outOfTime) return `not started: ${result.detail ?? "the stop's time was spent"}`;
  if (result.status === 'timed-out') return `timed out after ${result.timeoutSeconds} s`;
  // The detail can hold the whole command line (thousands of file names): the notice stays short.
  if (result.status === 'not-started') return `could not start: ${clipDetail(result.detail ?? 'unknown reason')}`;
  if (result.exitCode !== undefined) return `failed (exit ${result.exitCode})`;
  return `failed (killed by ${result.signal ?? 'a signal'})`;
}

const DETAIL_LIMIT = 300;

function clipDetail(text: string): string {
  return text.length <= DETAIL_LIMIT ? text : `${text.slice(0, DETAIL_LIMIT)}… (${text.length - DETAIL_LIMIT} more characters)`;
}
