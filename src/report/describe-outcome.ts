import type { GateResult } from '../runner/gate-result.js';

/** A gate that gave no pass, in a few words: timed out, could not start, failed with its exit code or signal. */
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
