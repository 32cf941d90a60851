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
  /** Whether the full run collects this existing file (a test file, by pytest's rules and config). */
  collects: (path: string) => boolean;
  /** Files the full run collects whose imports gate can't read (doctest text files): always run. */
  alwaysRun: string[];
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
}

/**
 * The test files that import a changed module, transitively, and those a conftest.py that does so
 * applies to (every test in its folder and below), plus every test that reaches a file loading code
 * statically unknown (a subprocess, a computed import): that one could load the change too.
 */
export function selectPythonTests(input: TestSelectionInput): TestSelection {
  const importers = findImporters(input.paths, input.sources);
  const candidates = [...input.sources.keys()].filter((path) => input.collects(path));
  const pick = (seeds: string[]): string[] => {
    const reached = reachDependents(seeds, (file) => importers.get(file));
    const conftests = [...reached].filter((file) => file === 'conftest.py' || file.endsWith('/conftest.py')).map(parentOf);
    return candidates.filter((file) => reached.has(file) || conftests.some((dir) => dir === '' || file.startsWith(`${dir}/`)));
  };
  const byChange = pick(input.changed);
  const opaque = [...input.sources].flatMap(([file, source]) => (source.opaque ? [{ file, why: source.opaque }] : []));
  const byOpaque = opaque.length > 0 ? pick(opaque.map((entry) => entry.file)) : [];
  const targets = [...new Set([...byChange, ...byOpaque, ...input.alwaysRun])].sort();
  const inChange = new Set(byChange);
  const extra = new Set(byOpaque.filter((file) => !inChange.has(file)));
  const example = extra.size === 0 ? undefined : (opaque.find((entry) => extra.has(entry.file)) ?? opaque[0]);
  return { targets, total: candidates.length + input.alwaysRun.length, reached: byChange.length, opaque: example };
}
