import { join } from 'node:path';
import { readState, writeState } from '../state/state-files.js';

/**
 * What a gate showed on a tree, by the tree's snapshot digest: what "already red" means. A full run
 * leaves every failing id (a list); a narrowed run (a fast tier, a baseline check of some failures)
 * only tells about the ids it `checked`: any other id of that tree is still unknown.
 */
type GateRecord = string[] | { failing: string[]; checked: string[] };
type Memory = Array<{ digest: string; gates: Record<string, GateRecord> }>;

const KEEP_TREES = 30;

// v2: answers from a baseline copy are kept only when the copy proved it ran the commit's own code,
// and a diagnostic's id names no line (src/filters/diagnostic-id.ts); the first file
// (failures.json) may hold answers from copies that imported the edited code, under the old ids.
export function failureMemoryPath(stateDir: string): string {
  return join(stateDir, 'failures-v2.json');
}

/** What is known of `ids` on a tree: which failed there, and which no run on it has looked at. */
export interface Recalled {
  failing: string[];
  unchecked: string[];
}

export function recallFailures(path: string, digest: string, gate: string, ids: string[]): Recalled {
  const record = readState(path, isMemory).value?.find((entry) => entry.digest === digest)?.gates[gate];
  if (record === undefined) return { failing: [], unchecked: [...ids] };
  if (Array.isArray(record)) return { failing: record, unchecked: [] };
  const checked = new Set(record.checked);
  return { failing: record.failing, unchecked: ids.filter((id) => !checked.has(id)) };
}

/** `checked` undefined: a full run, whose list replaces what was known; else added to it. */
export function rememberFailures(path: string, digest: string, gate: string, ids: string[], checked?: string[]): void {
  const memory = readState(path, isMemory).value ?? [];
  const entry = memory.find((candidate) => candidate.digest === digest) ?? { digest, gates: {} };
  const known = entry.gates[gate];
  const union = (...lists: string[][]) => [...new Set(lists.flat())].sort();
  if (checked === undefined) entry.gates[gate] = union(ids);
  else if (Array.isArray(known)) entry.gates[gate] = union(known, ids);
  else entry.gates[gate] = { failing: union(known?.failing ?? [], ids), checked: union(known?.checked ?? [], checked, ids) };
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
        Object.values(entry.gates).every(isGateRecord),
    )
  );
}

function isGateRecord(value: unknown): value is GateRecord {
  if (isStrings(value)) return true;
  return typeof value === 'object' && value !== null && 'failing' in value && isStrings(value.failing) && 'checked' in value && isStrings(value.checked);
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((id) => typeof id === 'string');
}
