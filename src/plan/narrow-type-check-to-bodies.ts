import { type ChangeBase, changedVersions, nameFiles, pythonOf } from './change-base.js';
import type { GateSelection } from './select-gates.js';

/** The checkers that take files on their command line and check only those, in the project's settings. */
const PYRIGHTS = new Set(['pyright', 'basedpyright']);

/**
 * pyright and basedpyright check the whole project at every stop (6–16 s on click). When every
 * changed file differs from the change's base only inside the bodies of functions whose types come
 * from their declarations (src/fast/same-code/python-bodies.ts), no other module's diagnostics can
 * change: the checker runs on those files alone. Anything else runs it whole.
 */
export async function narrowTypeCheckToBodies(selections: GateSelection[], change: ChangeBase): Promise<GateSelection[]> {
  const compared = await changedVersions(selections.filter(isEligible), change);
  if (compared === undefined) return selections;
  const { changedInTypedBodiesOnly, pyrightChecks } = await import('../fast/same-code/python-bodies.js');
  const narrowed = new Map<string, GateSelection>();
  for (const { selection, files } of compared) {
    const python = pythonOf(selection, change.env);
    const answers = await changedInTypedBodiesOnly(python, files.map((file) => [file.before, file.after] as const), selection.gate.cwd);
    if (!answers.every(Boolean) || !(await pyrightChecks(python, selection.gate.cwd, selection.files))) continue;
    const run = selection.gate.run as string[];
    narrowed.set(selection.gate.name, {
      ...selection,
      // `{files}`: the changed files, as a user's command names them; a run on part of the project.
      gate: { ...selection.gate, run: [...run, '{files}'] },
      reason: `${selection.reason}; only ${nameFiles(files.map((file) => file.path))}: changed inside bodies of functions with declared types, which no other module's check reads`,
    });
  }
  return selections.map((selection) => narrowed.get(selection.gate.name) ?? selection);
}

function isEligible(selection: GateSelection): boolean {
  const { gate } = selection;
  if (!selection.run || !PYRIGHTS.has(gate.preset ?? '') || gate.shell || !Array.isArray(gate.run) || (selection.upstream ?? []).length > 0) return false;
  // Stubs (.pyi) are declarations: any change there is read by other modules.
  return selection.files.length > 0 && selection.files.every((file) => file.endsWith('.py'));
}
