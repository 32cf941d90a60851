import type { GateResult } from './runner/gate-result.js';

export type StopDecision =
  | { kind: 'allow'; passed: boolean; noVerdict: GateResult[] }
  | { kind: 'block'; failed: GateResult[]; noVerdict: GateResult[] }
  | { kind: 'escape'; failed: GateResult[]; noVerdict: GateResult[] };

/**
 * The verdict of one stop from its gates' results: only failures block (timeouts too when
 * `onTimeout` is "block"), and not once the session has been blocked `maxBlocks` times in a row.
 */
export function decideStop(results: GateResult[], blocksSoFar: number, maxBlocks: number, onTimeout: 'allow' | 'block'): StopDecision {
  const failed = results.filter((result) => result.status === 'failed' || (onTimeout === 'block' && result.status === 'timed-out'));
  const noVerdict = results.filter((result) => result.status === 'not-started' || (onTimeout === 'allow' && result.status === 'timed-out'));
  if (failed.length === 0) return { kind: 'allow', passed: noVerdict.length === 0, noVerdict };
  if (blocksSoFar >= maxBlocks) return { kind: 'escape', failed, noVerdict };
  return { kind: 'block', failed, noVerdict };
}

export function describeOutcome(result: GateResult): string {
  if (result.status === 'timed-out') return `timed out after ${result.timeoutSeconds} s`;
  if (result.status === 'not-started') return `could not start: ${result.detail ?? 'unknown reason'}`;
  if (result.exitCode !== undefined) return `failed (exit ${result.exitCode})`;
  return `failed (killed by ${result.signal ?? 'a signal'})`;
}
