import type { GateResult } from '../runner/gate-result.js';
import { failureIds } from './baseline-failures.js';
import { failureMemoryPath, rememberFailures } from './failure-memory.js';
import { stoppedEarly } from './partial-run.js';

/**
 * What each gate showed on a state (`key`: its tree and environment, src/start/start-state.ts), for
 * a later turn that starts there. A fast tier's run, or one that stopped early, tells only about the
 * failures it shows.
 */
export function rememberResults(stateDir: string, key: string, results: GateResult[]): void {
  const memory = failureMemoryPath(stateDir);
  for (const result of results) {
    const ids = result.cached ? undefined : failureIds(result.status, result.filter, result.output);
    // A run that may have stopped at its first failing unit is evidence only for what it reached.
    const partial = result.status === 'failed' && stoppedEarly(result.command, undefined, result.filter, result.output);
    if (ids !== undefined) rememberFailures(memory, key, result.name, ids, result.narrowed || partial ? ids : undefined);
  }
}
