import { join } from 'node:path';
import { readState, writeState } from '../state/state-files.js';

/** Failure ids each gate showed on a tree, by the tree's snapshot digest: what "already red" means. */
type Memory = Array<{ digest: string; gates: Record<string, string[]> }>;

const KEEP_TREES = 30;

export function failureMemoryPath(stateDir: string): string {
  return join(stateDir, 'failures.json');
}

export function recalledFailures(path: string, digest: string, gate: string): string[] | undefined {
  return readState(path, isMemory).value?.find((entry) => entry.digest === digest)?.gates[gate];
}

export function rememberFailures(path: string, digest: string, gate: string, ids: string[]): void {
  const memory = readState(path, isMemory).value ?? [];
  const entry = memory.find((candidate) => candidate.digest === digest) ?? { digest, gates: {} };
  entry.gates[gate] = [...new Set(ids)].sort();
  writeState(path, [...memory.filter((candidate) => candidate !== entry), entry].slice(-KEEP_TREES));
}

function isMemory(value: unknown): value is Memory {
  return (
    Array.isArray(value) &&
    value.every(
      (entry: unknown) =>
        typeof entry === 'object' &&
        entry !== null &&
        'digest' in entry &&
        typeof entry.digest === 'string' &&
        'gates' in entry &&
        typeof entry.gates === 'object' &&
        entry.gates !== null &&
        Object.values(entry.gates).every((ids: unknown) => Array.isArray(ids) && ids.every((id) => typeof id === 'string')),
    )
  );
}
