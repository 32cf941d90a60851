import { basename } from 'node:path';
import type { CoverageRecord, FindUnits, TestEntry } from './coverage-record.js';
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
  /** `leaveOut`: the tests (pytest node ids) of a kept file that executed none of the changed functions. */
  kept: Array<{ test: string; reason: Reason; leaveOut?: string[] }>;
  /** The changed functions, by changed file (only files whose change lies inside functions). */
  functions: Map<string, string[]>;
  /** Functions of other files that differ from the record (an earlier turn's change since its run), by file. */
  sinceRecord: Map<string, string[]>;
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
  const sinceRecord = new Map<string, string[]>();
  const changes = new Map<string, string[] | 'outside' | 'same'>();
  const changeIn = (path: string, recorded: string) => {
    const key = `${path}\u0000${recorded}`;
    let change = changes.get(key);
    if (change === undefined) {
      change = placeChange(path, recorded, record, read, findUnits);
      changes.set(key, change);
      const into = changed.includes(path) ? functions : sinceRecord;
      if (Array.isArray(change) && change.length > 0) into.set(path, [...new Set([...(into.get(path) ?? []), ...change])]);
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
    const byTest = reason === undefined || reason === 'called' ? entry?.byTest : undefined;
    // A test of the file with no record of its own (it failed, or started a process) runs anyway.
    const unrecorded = byTest !== undefined && Object.values(byTest.items).some((modules) => modules === null);
    if (reason === undefined && !unrecorded) continue;
    const leaveOut = byTest ? (reason === undefined ? recordedTests(byTest) : testsLeftOut(byTest, entry?.loaded ?? {}, changeIn)) : [];
    const why = reason ?? 'no-record';
    kept.push(leaveOut.length > 0 ? { test, reason: why, leaveOut } : { test, reason: why });
  }
  return { kept, functions, sinceRecord };
}

/**
 * The tests of a file that calls a changed function which each executed none of them, and whose
 * record holds (none when one of them ran for every test: at import, in a wider fixture).
 */
function testsLeftOut(byTest: ByTest, loaded: TestEntry['loaded'], changeIn: (path: string, hash: string) => string[] | 'outside' | 'same'): string[] {
  const changes = new Map<string, string[]>();
  for (const [path, module] of Object.entries(loaded)) {
    const change = changeIn(path, module.hash);
    if (change === 'outside') return [];
    if (change !== 'same' && change.length > 0) changes.set(path, change);
  }
  const touches = (modules: Record<string, string[] | 'all'>) => [...changes].some(([path, names]) => {
    const called = modules[path];
    return called === 'all' || (called !== undefined && names.some((name) => called.includes(name)));
  });
  if (touches(byTest.common)) return [];
  return Object.entries(byTest.items).flatMap(([id, modules]) => (modules !== null && !touches(modules) ? [id] : []));
}

/** The tests with a record of their own: in a file none of whose functions the change touched, all can be left out. */
function recordedTests(byTest: ByTest): string[] {
  return Object.entries(byTest.items).flatMap(([id, modules]) => (modules === null ? [] : [id]));
}

type ByTest = NonNullable<TestEntry['byTest']>;

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
