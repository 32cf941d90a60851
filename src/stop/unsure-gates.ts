import type { GateResult } from '../runner/gate-result.js';

/**
 * The gates not known to pass in full on this tree: all but those that ran in full and passed,
 * unless the change continues from a tree they passed in full on (`before`: that tree's unsure
 * ones) — then a narrowed pass holds too (a fast tier never passes what the full run would fail
 * for a reason inside the change), and so does not running at all. `before` undefined: the change
 * is measured from a tree nothing is known of.
 */
export function unsureGates(names: string[], results: GateResult[], before: string[] | undefined): string[] {
  return names.filter((name) => {
    const result = results.find((candidate) => candidate.name === name);
    if (result?.status === 'passed' && !result.narrowed && !result.cached) return false;
    if (before === undefined || before.includes(name)) return true;
    return result !== undefined && result.status !== 'passed' && result.status !== 'skipped';
  });
}
