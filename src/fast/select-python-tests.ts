import type { PythonSource } from './parse-python-imports.js';
import { findImporters, parentOf } from './python-module-graph.js';
import { reachDependents } from './reach-dependents.js';

export interface TestSelectionInput {
  /** Every .py file of the project, the changed ones that were deleted included. */
  paths: string[];
  /** The files that exist, read. */
  sources: Map<string, PythonSource>;
  /** The changed .py files. */
  changed: string[];
  /** Whether the full run collects this file (a test file, by pytest's rules and config). */
  collects: (path: string) => boolean;
  /** Files the full run collects whose imports gate can't read (doctest text files): always run. */
  alwaysRun: string[];
  /** The project's console scripts: a process running one runs the project's Python. */
  scripts?: string[];
}

export interface TestSelection {
  /** What to pass to pytest, sorted. */
  targets: string[];
  /** How many files the full run collects. */
  total: number;
  /** Of the targets, those that import the change (the others reach code that loads modules at run time). */
  reached: number;
  /** One file whose run-time loading pulled tests in, and why, for the reason shown. */
  opaque: { file: string; why: string } | undefined;
  /** The module most of the tests importing the change import it through (a package's __init__.py). */
  through?: { file: string; count: number };
}

interface Widening {
  seeds: string[];
  /** Tests it may pull in at most (those that also reach a process start, for Python named in a file). */
  within?: Set<string>;
  why: (file: string) => string;
}

/**
 * The test files that import a changed module, transitively, and those a conftest.py that does so
 * applies to (every test in its folder and below); plus the tests that may load the change in a way
 * imports don't show, each rule as wide as its evidence:
 * - a file that loads code in its own process by a name or path gate can't read (a computed import,
 *   exec): every test that reaches it, for any change;
 * - a process: it loads the project's code only if it runs Python. So a test is pulled in only when
 *   it reaches both a file that starts processes and a file that names Python as a program
 *   (`sys.executable`, a "python" or "pytest" literal, the project's console script), where the
 *   name can reach the process start: the same file, a test-side file (the test, its conftest.py,
 *   its helpers), or a file that imports the starting one or is imported by it. A changed test file
 *   is loaded by another process only if that process runs a test runner or names the file, so for
 *   a change to test files alone the evidence must say one of those.
 * This assumes a program's name is written in the code (not read from a data file or the
 * environment outside the tests); see docs/fast-tiers.md.
 */
export function selectPythonTests(input: TestSelectionInput): TestSelection {
  const importers = findImporters(input.paths, input.sources);
  const candidates = [...input.sources.keys()].filter((path) => input.collects(path));
  const pick = (seeds: string[]): string[] => {
    const reached = reachDependents(seeds, (file) => importers.get(file));
    const conftests = [...reached].filter(isConftest).map(parentOf);
    return candidates.filter((file) => reached.has(file) || conftests.some((dir) => dir === '' || file.startsWith(`${dir}/`)));
  };
  const byChange = pick(input.changed);
  const inChange = new Set(byChange);
  const extra = new Set<string>();
  let example: TestSelection['opaque'];
  for (const widening of findWidenings(input, importers, candidates, pick)) {
    const within = (file: string) => !inChange.has(file) && (!widening.within || widening.within.has(file));
    const added = widening.seeds.length === 0 ? [] : pick(widening.seeds).filter(within);
    for (const file of added) extra.add(file);
    // The reason names one seed that pulled tests in; usually the first one tried.
    const seed = example || added.length === 0 ? undefined : widening.seeds.find((file) => pick([file]).some(within));
    if (seed) example = { file: seed, why: widening.why(seed) };
  }
  const targets = [...new Set([...byChange, ...extra, ...input.alwaysRun])].sort();
  const through = findThrough(input.changed, byChange, importers);
  return { targets, total: candidates.length + input.alwaysRun.length, reached: byChange.length, opaque: example, ...(through && { through }) };
}

function findWidenings(input: TestSelectionInput, importers: Map<string, Set<string>>, candidates: string[], pick: (seeds: string[]) => string[]): Widening[] {
  const sources = [...input.sources];
  const loaders = sources.filter(([, source]) => source.opaque);
  const widenings: Widening[] = [{ seeds: loaders.map(([file]) => file), why: (file) => input.sources.get(file)?.opaque ?? '' }];
  const spawners = sources.filter(([, source]) => source.spawns).map(([file]) => file);
  if (spawners.length === 0) return widenings;
  const nearSpawners = new Set([...reachDependents(spawners, (file) => importers.get(file)), ...reachImported(spawners, importers)]);
  const testSide = testSideOf(candidates, input.paths);
  const scripts = new Set(input.scripts ?? []);
  const evidence = sources.flatMap(([file, source]) => {
    const python = source.python ?? scriptEvidence(source, scripts);
    return python && (nearSpawners.has(file) || testSide(file)) ? [{ file, source, python }] : [];
  });
  const onlyTests = input.changed.every((file) => input.collects(file) && !isConftest(file));
  const loadsChange = (source: PythonSource, runsTests: boolean) =>
    !onlyTests || runsTests || input.changed.some((file) => names(source, file));
  // The files that start the process themselves first: the plainest reason to show.
  const seeds = evidence.filter((entry) => loadsChange(entry.source, entry.python.runsTests)).sort((a, b) => Number(Boolean(b.source.spawns)) - Number(Boolean(a.source.spawns)));
  if (seeds.length === 0) return widenings;
  const within = new Set(pick(spawners));
  const byFile = new Map(seeds.map((entry) => [entry.file, entry]));
  const why = (file: string) => {
    const entry = byFile.get(file);
    const what = entry?.python.what ?? '';
    return entry?.source.spawns ? `runs Python in another process (${what})` : `names Python as a program (${what}) for code that runs other processes`;
  };
  return [...widenings, { seeds: seeds.map((entry) => entry.file), within, why }];
}

// The file, other than a changed one, that most of the selected tests import directly, when that is
// at least half of them: the usual one is a package's __init__.py importing all its modules.
function findThrough(changed: string[], selected: string[], importers: Map<string, Set<string>>): TestSelection['through'] {
  if (selected.length < 2) return undefined;
  const skip = new Set([...changed, ...selected]);
  const tests = new Set(selected);
  let best: TestSelection['through'];
  for (const file of reachDependents(changed, (node) => importers.get(node))) {
    if (skip.has(file)) continue;
    const count = [...(importers.get(file) ?? [])].filter((importer) => tests.has(importer)).length;
    if (count * 2 >= selected.length && count > (best?.count ?? 0)) best = { file, count };
  }
  return best;
}

function scriptEvidence(source: PythonSource, scripts: Set<string>): { what: string; runsTests: boolean } | undefined {
  const script = source.commands?.find((word) => scripts.has(word));
  return script ? { what: `the project's script "${script}"`, runsTests: false } : undefined;
}

// Another process imports a test file by its name or path: `test_cli`, `tests/test_cli.py`.
function names(source: PythonSource, file: string): boolean {
  const stem = file.slice(file.lastIndexOf('/') + 1).replace(/\.py$/, '');
  if (!/test/i.test(stem)) return true;
  return (source.testWords ?? []).some((word) => word.includes(stem));
}

// The files a test run brings in besides the library: those in or below a folder holding a test
// file or conftest.py (the tests, their conftest.py files and helpers).
function testSideOf(candidates: string[], paths: string[]): (file: string) => boolean {
  const dirs = new Set([...candidates, ...paths.filter(isConftest)].map(parentOf));
  return (file) => {
    for (let dir = parentOf(file); ; dir = parentOf(dir)) {
      if (dirs.has(dir)) return true;
      if (dir === '') return false;
    }
  };
}

// What the seeds import, transitively: a value they read from there may name the program.
function reachImported(seeds: string[], importers: Map<string, Set<string>>): Set<string> {
  const imports = new Map<string, string[]>();
  for (const [target, set] of importers) {
    for (const file of set) {
      const list = imports.get(file);
      if (list) list.push(target);
      else imports.set(file, [target]);
    }
  }
  return reachDependents(seeds, (file) => imports.get(file));
}

function isConftest(file: string): boolean {
  return file === 'conftest.py' || file.endsWith('/conftest.py');
}
