import { basename } from 'node:path';
import type { CoverageRecord, FindUnits } from './coverage-record.js';
import { hash } from './function-units.js';

export interface RecordInput {
  record: CoverageRecord;
  /** The test files the import graph chose (absolute). */
  tests: string[];
  /** The changed files (absolute). */
  changed: string[];
  /** A file's text now; undefined when it is gone. */
  read: (path: string) => string | undefined;
  findUnits: FindUnits;
}

/** Why a test file runs: it called a changed function, or the record can't vouch for it. */
export type Reason = 'called' | 'no-record' | 'outside' | 'names-file';

export interface RecordSelection {
  kept: Array<{ test: string; reason: Reason }>;
  /** The changed functions, by changed file (only files whose change lies inside functions). */
  functions: Map<string, string[]>;
}

/**
 * The graph's tests a change can affect by what they executed on the record's run. A test is left
 * out only when it has an entry and every file it loaded then is the same now or differs only
 * inside functions it never called, and its text doesn't name a changed file (a test may read a
 * source file as text). Anything else keeps it: no entry, a change at module level, to a
 * signature, a function added or removed, a file the parser can't read.
 */
export function selectByRecord({ record, tests, changed, read, findUnits }: RecordInput): RecordSelection {
  const functions = new Map<string, string[]>();
  const changes = new Map<string, string[] | 'outside' | 'same'>();
  const changeIn = (path: string, recorded: string) => {
    const key = `${path}\u0000${recorded}`;
    let change = changes.get(key);
    if (change === undefined) {
      change = placeChange(path, recorded, record, read, findUnits);
      changes.set(key, change);
      if (Array.isArray(change) && changed.includes(path)) functions.set(path, [...new Set([...(functions.get(path) ?? []), ...change])]);
    }
    return change;
  };
  const named = changed.map((path) => basename(path));
  const kept: RecordSelection['kept'] = [];
  for (const test of tests) {
    const entry = record.tests[test];
    const text = read(test);
    const reason: Reason | undefined =
      entry === undefined || text === undefined || hash(text) !== entry.loaded[test]?.hash
        ? 'no-record'
        : named.some((name) => text.includes(name))
          ? 'names-file'
          : firstReason(entry.loaded, changeIn);
    if (reason !== undefined) kept.push({ test, reason });
  }
  return { kept, functions };
}

function firstReason(loaded: CoverageRecord['tests'][string]['loaded'], changeIn: (path: string, hash: string) => string[] | 'outside' | 'same'): Reason | undefined {
  let reason: Reason | undefined;
  for (const [path, module] of Object.entries(loaded)) {
    const change = changeIn(path, module.hash);
    if (change === 'same') continue;
    if (change === 'outside') return 'outside';
    if (module.called === 'all' ? change.length > 0 : change.some((name) => module.called.includes(name))) reason = 'called';
  }
  return reason;
}

/** How a module differs from its recorded version: not at all, inside these functions only, or elsewhere. */
function placeChange(path: string, recorded: string, record: CoverageRecord, read: (path: string) => string | undefined, findUnits: FindUnits): string[] | 'outside' | 'same' {
  const text = read(path);
  if (text === undefined) return 'outside';
  if (hash(text) === recorded) return 'same';
  const before = record.units[recorded];
  const now = before ? findUnits(path, text) : undefined;
  if (!before || !now || now.skeleton !== before.skeleton || now.units.length !== before.units.length) return 'outside';
  return now.units.flatMap((unit, index) => (unit.body === before.units[index]?.body ? [] : [unit.name]));
}
