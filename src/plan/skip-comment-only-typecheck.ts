import { JS_FAMILY } from '../fast/same-code/js-runtime.js';
import { type ChangeBase, changedVersions, nameFiles, pythonOf, repoPathsOf } from './change-base.js';
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
 * nothing. Any other file among its triggers (a config, a manifest), and it runs as always. A
 * workspace package's checker triggered only by a dependency's change follows that change's files.
 */
export async function skipCommentOnlyTypechecks(selections: GateSelection[], change: ChangeBase): Promise<GateSelection[]> {
  const compared = await changedVersions(
    selections.filter((selection) => isEligible(selection, change.root)),
    change,
    (selection) => checkedPaths(selection, change.root),
  );
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
  const family = TYPE_CHECKERS[selection.gate.preset ?? ''];
  const paths = checkedPaths(selection, root);
  return selection.run && family !== undefined && paths.length > 0 && paths.every((path) => family.test(path));
}

/**
 * What the checker would read changed: its own changed files, or — a workspace package's checker
 * that runs only because a package it depends on changed — that package's (both: not decided).
 */
function checkedPaths(selection: GateSelection, root: string): string[] {
  const upstream = selection.upstream ?? [];
  if (selection.files.length > 0) return upstream.length > 0 ? [] : repoPathsOf(selection, root);
  return upstream;
}
