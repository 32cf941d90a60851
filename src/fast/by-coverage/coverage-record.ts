import { hash, type ModuleUnits } from './function-units.js';
import type { ByTest, ProcessRun } from './read-v8-coverage.js';

/** A module's units by its path and text (TypeScript's parser, or Python's); undefined when it can't be cut. */
export type FindUnits = (path: string, text: string) => ModuleUnits | undefined;

/**
 * What each test file executed on a passing full run, keyed by content: a test's entry holds for
 * as long as the files it loaded have the hashes it names, or differ only inside functions it
 * never called. Paths are absolute.
 */
export interface CoverageRecord {
  version: 1;
  /** When the last run that added to it ended (ISO). */
  at: string;
  /** The hash of the test configs, manifests and lockfiles of the runs it holds (see configStamp). */
  configs: string;
  tests: Record<string, TestEntry>;
  /** The units of each recorded version of a module, by its hash. */
  units: Record<string, ModuleUnits>;
}

export interface TestEntry {
  loaded: Record<string, LoadedModule>;
  /** pytest: the units each test executed (null: no record of its own) and those that run for all, by module. */
  byTest?: { common: Record<string, Called>; items: Record<string, Record<string, Called> | null> };
}

type Called = string[] | 'all';

export interface LoadedModule {
  hash: string;
  /** The units it called, by name; `all`: the record can't tell which (a name V8 made up, a file loaded as text). */
  called: string[] | 'all';
}

// The accessors vite's SSR transform defines for each export (`get(){ return sum }`): no function of the source.
const VITE_GETTERS = new Set(['get', 'set']);

/**
 * The record after a passing full run: each test file with a process of its own gets a new entry;
 * one the run ran without a usable record loses its old one; tests this run did not run keep
 * theirs. `read` gives a module's text as it was when the run started (undefined: changed since).
 * Names may be qualified (Python's `Class.method`): each part must be a word of the source.
 */
export function addRuns(before: CoverageRecord | undefined, runs: ProcessRun[], read: (path: string) => string | undefined, findUnits: FindUnits, at: string, configs: string): CoverageRecord {
  // Entries made under another config may have run other code: they go.
  const previous = before?.configs === configs ? before : undefined;
  const tests = { ...previous?.tests };
  const units: Record<string, ModuleUnits> = {};
  const texts = new Map<string, { hash: string; words: Set<string>; units: ModuleUnits | undefined } | undefined>();
  const version = (path: string) => {
    if (!texts.has(path)) {
      const text = read(path);
      const found = text === undefined ? undefined : { hash: hash(text), words: new Set(text.match(/[#\w$]+/g)), units: findUnits(path, text) };
      texts.set(path, found);
    }
    return texts.get(path);
  };
  for (const run of runs) {
    if (run.kind === 'other') {
      for (const test of run.tests) delete tests[test];
      continue;
    }
    delete tests[run.test];
    const loaded: Record<string, LoadedModule> = {};
    let usable = true;
    for (const [path, names] of run.modules) {
      const now = version(path);
      if (now === undefined) {
        usable = false;
        break;
      }
      const unitNames = new Set(now.units?.units.map((unit) => unit.name));
      // A name the source doesn't hold: a transform renamed or added a function, so names don't place calls here.
      const unknown = names === 'all' || now.units === undefined || [...names].some((name) => name.split('.').some((part) => !now.words.has(part)) && !VITE_GETTERS.has(name));
      loaded[path] = { hash: now.hash, called: unknown ? 'all' : [...names].filter((name) => unitNames.has(name)).sort() };
      if (now.units) units[now.hash] = now.units;
    }
    if (usable) tests[run.test] = run.byTest ? { loaded, byTest: unitsByTest(run.byTest, loaded) } : { loaded };
  }
  for (const entry of Object.values(tests)) {
    for (const module of Object.values(entry.loaded)) {
      const kept = units[module.hash] ?? previous?.units[module.hash];
      if (kept) units[module.hash] = kept;
    }
  }
  return { version: 1, at, configs, tests, units };
}

/** The tests' names kept as the file's are: only units of the module; `all` where the module's are. */
function unitsByTest(byTest: ByTest, loaded: Record<string, LoadedModule>): NonNullable<TestEntry['byTest']> {
  const kept = (modules: Map<string, Set<string> | 'all'>): Record<string, Called> => {
    const out: Record<string, Called> = {};
    for (const [path, names] of modules) {
      const module = loaded[path];
      if (module === undefined) continue;
      out[path] = names === 'all' || module.called === 'all' ? 'all' : module.called.filter((name) => names.has(name));
    }
    return out;
  };
  const items: Record<string, Record<string, Called> | null> = {};
  for (const [id, modules] of byTest.items) items[id] = modules && kept(modules);
  return { common: kept(byTest.common), items };
}

/** A record read back from disk, or undefined when it is not one (another version, a torn write). */
export function parseRecord(text: string): CoverageRecord | undefined {
  try {
    const record = JSON.parse(text) as Partial<CoverageRecord>;
    if (record.version !== 1 || typeof record.at !== 'string' || typeof record.configs !== 'string' || typeof record.tests !== 'object' || typeof record.units !== 'object' || !record.tests || !record.units) return undefined;
    return record as CoverageRecord;
  } catch {
    return undefined;
  }
}
