import { resolve } from 'node:path';
import { JS_FAMILY } from '../fast/same-code/js-runtime.js';
import { type ChangeBase, changedVersions, nameFiles, pythonOf, toRepoPath } from './change-base.js';
import type { GateSelection } from './select-gates.js';

/**
 * The type checkers whose verdict only code and their directive comments decide. A project's own
 * typecheck script, or a workspace runner's, may do anything: not these.
 */
const TYPE_CHECKERS: Record<string, RegExp> = { tsc: JS_FAMILY, mypy: /\.pyi?$/, pyright: /\.pyi?$/, basedpyright: /\.pyi?$/ };

/**
 * A type checker triggered only by files that differ from the change's base in comments and layout
 * (no directive to it among them: `@ts-ignore`, `# type: ignore`, JSDoc in JavaScript …) reads the
 * same program it read at the base, in the same environment: its verdict cannot be new, so it runs
 * nothing. Any other file among its triggers (a config, a manifest), or a dependency's change, and
 * it runs as always.
 */
export async function skipCommentOnlyTypechecks(selections: GateSelection[], change: ChangeBase): Promise<GateSelection[]> {
  const compared = await changedVersions(selections.filter((selection) => isEligible(selection, change.root)), change);
  if (compared === undefined) return selections;
  const { sameToTypeCheckers } = await import('../fast/same-code/same-code.js');
  const skipped = new Map<string, string[]>();
  for (const { selection, files } of compared) {
    const same = await sameToTypeCheckers(files, { cwd: selection.gate.cwd, python: pythonOf(selection, change.env) });
    if (same.length === files.length) skipped.set(selection.gate.name, same);
  }
  return selections.map((selection) => {
    const files = skipped.get(selection.gate.name);
    return files === undefined ? selection : { ...selection, run: false, sameCode: true, reason: `${nameFiles(files)} changed in comments or layout only: the type checker reads the same code` };
  });
}

function isEligible(selection: GateSelection, root: string): boolean {
  const { gate } = selection;
  const family = TYPE_CHECKERS[gate.preset ?? ''];
  if (!selection.run || family === undefined || (selection.upstream ?? []).length > 0 || selection.files.length === 0) return false;
  return repoPaths(selection, root).every((path) => family.test(path));
}

function repoPaths(selection: GateSelection, root: string): string[] {
  return selection.files.map((file) => toRepoPath(root, resolve(selection.gate.cwd, file)));
}
