import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { readBaseVersions } from '../snapshot/base-versions.js';
import type { GateSelection } from './select-gates.js';
import type { ChangeBase } from './change-base.js';

// The runners whose fast tier reads the import graph through barrels (src/fast/js-module-graph.ts).
const GRAPH_RUNNERS = new Set(['vitest', 'jest', 'mocha', 'node-test']);
const JS_FILE = /\.[cm]?[jt]sx?$/;
// One re-export on its own line: `export * from './x'`, `export * as x from './x'`, `export { a, b as c } from './x'`.
const RE_EXPORT_LINE = /^\s*export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}\n]*\})\s*from\s*(['"])(\.{1,2}\/[^'"\n]+)\1\s*;?\s*$/;
const MAX_FILES = 40;

/**
 * The relative specifiers of the re-exports an edit of a barrel only added: undefined when it did
 * anything else (a line removed or changed, another statement added, a re-export over lines).
 */
export function addedReExports(before: string, after: string): string[] | undefined {
  const old = before.replace(/\r\n/g, '\n').split('\n');
  const had = new Set(old.map((line) => line.trim()));
  const added: string[] = [];
  const kept: string[] = [];
  for (const line of after.replace(/\r\n/g, '\n').split('\n')) {
    const match = RE_EXPORT_LINE.exec(line);
    if (match?.[2] !== undefined && !had.has(line.trim())) added.push(match[2]);
    else kept.push(line);
  }
  const text = (lines: string[]) => lines.filter((line) => line.trim() !== '').map((line) => line.trimEnd()).join('\n');
  return added.length > 0 && text(kept) === text(old) ? added : undefined;
}

/**
 * A barrel that only gained re-exports (the agent's new function, `export * from './x'` added to
 * `src/mod.ts`) changes no name a test already took through it — unless a new name shadows or
 * clashes with one, which the graph links to the new module too. So for the test runners that read
 * the graph through barrels it counts as a change of the modules it now re-exports: that reaches
 * the tests that use a name they define, the tests that take the barrel whole, and every barrel
 * loader when one does something as it loads.
 */
export async function narrowBarrelAdditions(selections: GateSelection[], change: ChangeBase): Promise<GateSelection[]> {
  const { base } = change;
  const eligible = selections.filter(isEligible);
  if (base === undefined || eligible.length === 0) return selections;
  const paths = [...new Set(eligible.flatMap((selection) => selection.files.filter((file) => JS_FILE.test(file)).map((file) => repoPath(change.root, resolve(selection.gate.cwd, file)))))];
  if (paths.length === 0 || paths.length > MAX_FILES) return selections;
  const versions = await readBaseVersions(change.root, base, change.start, paths);
  const targets = new Map<string, string[]>();
  for (const path of paths) {
    const before = versions.get(path);
    const after = readNow(join(change.root, path));
    const added = typeof before === 'string' && after !== undefined ? addedReExports(before, after) : undefined;
    if (added === undefined) continue;
    const { resolvePath } = await import('../fast/resolve-js-import.js');
    const { readModuleFiles } = await import('../fast/js-imports.js');
    const files = readModuleFiles();
    const found = added.map((specifier) => resolvePath(resolve(change.root, dirname(path), specifier), files));
    if (found.every((list) => list.length > 0)) targets.set(path, [...new Set(found.flat().map((file) => repoPath(change.root, file)))]);
  }
  if (targets.size === 0) return selections;
  return selections.map((selection) => (isEligible(selection) ? withTargets(selection, targets, change.root) : selection));
}

function withTargets(selection: GateSelection, targets: ReadonlyMap<string, string[]>, root: string): GateSelection {
  const { cwd } = selection.gate;
  const barrels = selection.files.filter((file) => targets.has(repoPath(root, resolve(cwd, file))));
  if (barrels.length === 0) return selection;
  const local = (path: string) => posix(relative(cwd, join(root, path)));
  const added = barrels.flatMap((file) => (targets.get(repoPath(root, resolve(cwd, file))) ?? []).map(local));
  const files = [...new Set([...selection.files.filter((file) => !barrels.includes(file)), ...added])];
  const note = `; ${barrels.join(', ')} only adds re-exports: a change of ${added.join(', ')} for its tests`;
  return { ...selection, files, reason: `${selection.reason}${note}` };
}

function isEligible(selection: GateSelection): boolean {
  const { gate } = selection;
  return selection.run && !selection.partial && selection.upstreamFiles === undefined && gate.tier !== undefined && !gate.fastOff && GRAPH_RUNNERS.has(gate.preset ?? '');
}

function readNow(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function repoPath(root: string, path: string): string {
  return posix(relative(root, path));
}

function posix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
