import { failureMemoryPath, recallFailures } from './failure-memory.js';

/**
 * The failure ids each gate showed on a state (`key`: a tree and its environment), as gate
 * remembers them: a failure is pre-existing only on that evidence, never on a guess.
 */
export function failingOn(stateDir: string, key: string | undefined): (gate: string) => ReadonlySet<string> {
  if (key === undefined) return () => new Set();
  const path = failureMemoryPath(stateDir);
  return (gate) => new Set(recallFailures(path, key, gate, []).failing);
}
