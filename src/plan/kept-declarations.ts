import { join, relative } from 'node:path';
import { type ChangeBase, changedVersions, repoPathsOf, toPosix } from './change-base.js';
import type { GateSelection } from './select-gates.js';

const TYPESCRIPT = /\.[cm]?tsx?$/;
// A type test's own assertions are in its bodies: a changed one is never "the same declarations".
const TYPE_TEST = /\.(?:test|spec)-d\.[cm]?[jt]sx?$/;

/**
 * vitest's type tests (`*.test-d.ts`, which its typecheck mode hands to tsc) check declarations, not
 * what runs. A changed TypeScript module that differs from the change's base only inside bodies
 * under a written-out return type (src/fast/same-code/ts-declarations.ts) declares what it did: a
 * type test it reaches checks the same thing, unless another change reaches it too. So the vitest
 * gate learns which of its changed files kept their declarations (`declarationsKept`), and its
 * fast tier leaves out the type tests only those reach (src/fast/vitest-graph.ts) — only for files
 * that a type-checker gate of the same stop checks as well: what the new body type-checks to (an
 * error in it, which vitest's typecheck would also report) is then that gate's to say.
 */
export async function markKeptDeclarations(selections: GateSelection[], change: ChangeBase): Promise<GateSelection[]> {
  // A checker that runs, or that runs nothing because its files changed in comments and layout only.
  const checkers = selections.filter((selection) => selection.gate.kind === 'typecheck' && (selection.run || selection.sameCode === true));
  if (checkers.length === 0) return selections;
  const checked = new Set(checkers.flatMap((selection) => repoPathsOf(selection, change.root)));
  const vitest = selections.filter((selection) => selection.run && selection.gate.preset === 'vitest' && selection.gate.tier !== undefined && !selection.gate.fastOff && selection.files.length > 0);
  const pathsOf = (selection: GateSelection) => repoPathsOf(selection, change.root).filter((path) => TYPESCRIPT.test(path) && !TYPE_TEST.test(path) && checked.has(path));
  const compared = vitest.length === 0 ? undefined : await changedVersions(vitest, change, pathsOf);
  if (compared === undefined) return selections;
  const { loadTypescript } = await import('../fast/same-code/js-runtime.js');
  const { sameDeclarations } = await import('../fast/same-code/ts-declarations.js');
  const kept = new Map<string, string[]>();
  for (const { selection, files } of compared) {
    const ts = loadTypescript(selection.gate.cwd);
    if (ts === undefined) continue;
    const same = files.filter((file) => sameDeclarations(ts, file.path, file.before, file.after)).map((file) => toPosix(relative(selection.gate.cwd, join(change.root, file.path))));
    if (same.length > 0) kept.set(selection.gate.name, same);
  }
  return selections.map((selection) => {
    const declarationsKept = kept.get(selection.gate.name);
    return declarationsKept === undefined ? selection : { ...selection, gate: { ...selection.gate, declarationsKept } };
  });
}
