import type { GateResult } from '../runner/gate-result.js';
import { failureIds } from './baseline-failures.js';
import { failureMemoryPath, rememberFailures } from './failure-memory.js';

/**
 * What each gate showed on a state (`key`: its tree and environment, src/verdict/start-state.ts), for
 * a later turn that starts there. A fast tier's run tells only about the failures it shows.
 */
export function rememberResults(stateDir: string, key: string, results: GateResult[]): void {
  const memory = failureMemoryPath(stateDir);
  for (const result of results) {
    const ids = result.cached ? undefined : failureIds(result.status, result.filter, result.output);
    if (ids !== undefined) rememberFailures(memory, key, result.name, ids, result.narrowed ? ids : undefined);
  }
}
