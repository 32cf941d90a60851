import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { JS_FAMILY } from '../fast/same-code/js-runtime.js';
import { namedAsText } from '../fast/same-code/named-as-text.js';
import { readBaseVersions } from '../snapshot/base-versions.js';
import { type ChangeBase, environmentKept, MAX_FILES, nameFiles, pythonOf, readNow, toPosix, toRepoPath } from './change-base.js';
import { narrowTypeCheckToBodies } from './narrow-type-check-to-bodies.js';
import { skipCommentOnlyTypechecks } from './skip-comment-only-typecheck.js';
import type { GateSelection } from './select-gates.js';

/**
 * The presets that only run tests: a comment there changes nothing they run. (A project's own `npm
 * test` may lint or check formatting too; go and cargo have comments that are code, `//go:embed`.)
 */
const TEST_RUNNERS: Record<string, RegExp> = { vitest: JS_FAMILY, jest: JS_FAMILY, mocha: JS_FAMILY, 'node-test': JS_FAMILY, pytest: /\.py$/ };

// Comments that change what a coverage threshold counts: then a comment changes a test run's outcome.
const COVERAGE_PRAGMA = /\b(?:istanbul|v8|c8|node:coverage)\s+ignore\b|pragma:\s*no\s*cover/;
const MEASURES_COVERAGE = /cov/;

/**
 * The test runners' selections without the changed files whose code is what it was at the change's
 * base — comments, whitespace, formatting, type annotations, `import type` (JavaScript and
 * TypeScript: the same emitted code; Python: the same syntax tree) — and with the files that name
 * one of them as text instead (a test reading a source file, a stack trace's file name). A test gate
 * left with nothing runs nothing. Then the type checkers whose changed files differ in comments and
 * layout only run nothing (src/plan/skip-comment-only-typecheck.ts), and pyright changed inside typed
 * function bodies only checks those files (src/plan/narrow-type-check-to-bodies.ts); lint gates are
 * never touched.
 * Only where the environment is what the turn started with: new packages can fail unchanged code.
 */
export async function skipUnchangedCode(selections: GateSelection[], change: ChangeBase): Promise<GateSelection[]> {
  try {
    if (change.base === undefined) return selections;
    const tests = await withoutUnchangedCode(selections, change).catch(() => selections);
    return await narrowTypeCheckToBodies(await skipCommentOnlyTypechecks(tests, change), change);
  } catch {
    return selections; // not decided: every gate runs as before
  }
}

async function withoutUnchangedCode(selections: GateSelection[], change: ChangeBase): Promise<GateSelection[]> {
  const { base } = change;
  if (base === undefined) return selections;
  const eligible = selections.filter(isEligible);
  const paths = [...new Set(eligible.flatMap((selection) => codeFiles(selection, change.root)))];
  if (paths.length === 0 || paths.length > MAX_FILES || !environmentKept(change)) return selections;
  const versions = await readBaseVersions(change.root, base, change.start, paths);
  const same = new Set<string>();
  const { sameCode, sameToTypeCheckers } = await import('../fast/same-code/same-code.js');
  for (const selection of eligible) {
    // vitest's typecheck mode runs type tests: there a type is what a test checks, and only comments and layout are no change.
    const compare = selection.gate.preset === 'vitest' && typeTestsMayRun(selection) ? sameToTypeCheckers : sameCode;
    const pairs = codeFiles(selection, change.root).flatMap((path) => {
      const before = versions.get(path);
      const after = readNow(join(change.root, path));
      return typeof before === 'string' && after !== undefined && !same.has(path) && before !== after && !hasCoveragePragma(before, after) ? [{ path, before, after }] : [];
    });
    for (const path of await compare(pairs, { cwd: selection.gate.cwd, python: pythonOf(selection, change.env) })) same.add(path);
  }
  if (same.size === 0) return selections;
  return Promise.all(selections.map((selection) => (isEligible(selection) ? withoutSameCode(selection, same, change.root) : selection)));
}

/** Whether a vitest gate may run type tests: its command or a config in its folder names `typecheck`. */
function typeTestsMayRun(selection: GateSelection): boolean {
  const { gate } = selection;
  const words = typeof gate.run === 'string' ? [gate.run] : gate.run;
  if (words.some((word) => word.includes('typecheck'))) return true;
  try {
    return readdirSync(gate.cwd).some((name) => VITEST_CONFIG.test(name) && TYPECHECK.test(readNow(join(gate.cwd, name)) ?? 'typecheck'));
  } catch {
    return true;
  }
}

const VITEST_CONFIG = /^(?:vitest|vite)\.(?:config|workspace|projects)(?:\.[\w-]+)?\.[cm]?[jt]s$/;
const TYPECHECK = /\btypecheck\b/;

function isEligible(selection: GateSelection): boolean {
  const { gate } = selection;
  if (!selection.run || (selection.partial && !onlyUpstream(selection)) || gate.tier === undefined || gate.fastOff) return false;
  const words = typeof gate.run === 'string' ? [gate.run] : gate.run;
  return gate.preset !== undefined && gate.preset in TEST_RUNNERS && !words.some((word) => MEASURES_COVERAGE.test(word));
}

/**
 * A package's gate that runs only because a package it depends on changed (none of its own files
 * did): its tests run the same when that change is no code.
 */
function onlyUpstream(selection: GateSelection): boolean {
  return selection.upstream !== undefined && selection.upstream.length > 0 && selection.files.length === 0;
}

/** The selection's changed files of its runner's language (a dependency's, for a package's gate it triggered), relative to the repository root. */
function codeFiles(selection: GateSelection, root: string): string[] {
  const family = TEST_RUNNERS[selection.gate.preset ?? ''];
  if (family === undefined) return [];
  if (onlyUpstream(selection)) return (selection.upstream ?? []).filter((path) => family.test(path));
  return selection.files.map((file) => toRepoPath(root, resolve(selection.gate.cwd, file))).filter((path) => family.test(path));
}

async function withoutSameCode(selection: GateSelection, same: ReadonlySet<string>, root: string): Promise<GateSelection> {
  if (onlyUpstream(selection)) return upstreamWithoutSameCode(selection, same, root);
  const { gate } = selection;
  const unchanged = selection.files.filter((file) => same.has(toRepoPath(root, resolve(gate.cwd, file))));
  if (unchanged.length === 0) return selection;
  const family = TEST_RUNNERS[gate.preset ?? ''] ?? JS_FAMILY;
  const naming = await namedAsText(root, gate.cwd, unchanged.map((file) => toRepoPath(root, resolve(gate.cwd, file))), family);
  // The files that name them could not be looked for: the tests run as if the code had changed.
  if (naming === undefined) return selection;
  const namers = naming.map((path) => toPosix(relative(gate.cwd, join(root, path))));
  const files = [...new Set([...selection.files.filter((file) => !unchanged.includes(file)), ...namers])];
  const which = nameFiles(unchanged);
  if (files.length === 0) return { ...selection, run: false, sameCode: true, reason: `${which} changed in comments, formatting or types only: no code its tests run changed` };
  const note = namers.length > 0 ? `; ${which} changed in comments, formatting or types only, and ${namers.join(', ')} names it as text` : `; ${which} changed in comments, formatting or types only`;
  return { ...selection, files, reason: `${selection.reason}${note}` };
}

/**
 * A package's gate triggered by a dependency's change: when every changed file there is the same
 * code, and no file of this package names one as text, it runs nothing; when some are, its tests
 * follow the others (a full run stays a full run).
 */
async function upstreamWithoutSameCode(selection: GateSelection, same: ReadonlySet<string>, root: string): Promise<GateSelection> {
  const upstream = selection.upstream ?? [];
  const unchanged = upstream.filter((path) => same.has(path));
  if (unchanged.length === 0) return selection;
  const naming = await namedAsText(root, selection.gate.cwd, unchanged, TEST_RUNNERS[selection.gate.preset ?? ''] ?? JS_FAMILY);
  if (naming === undefined || naming.length > 0) return selection;
  const which = nameFiles(unchanged);
  const left = upstream.filter((path) => !same.has(path));
  if (left.length === 0) return { ...selection, run: false, sameCode: true, reason: `${which} changed in comments, formatting or types only: no code its tests run changed` };
  if (selection.upstreamFiles === undefined) return selection;
  const upstreamFiles = left.map((path) => toPosix(relative(selection.gate.cwd, join(root, path))));
  return { ...selection, upstream: left, upstreamFiles, reason: `${selection.reason}; ${which} changed in comments, formatting or types only` };
}

function hasCoveragePragma(before: string, after: string): boolean {
  return COVERAGE_PRAGMA.test(before) || COVERAGE_PRAGMA.test(after);
}

