import { relative, sep } from 'node:path';
import type { GateSelection } from './select-gates.js';

/**
 * How a linter's full run leaves a folder out: a folder whose own config runs the same preset in
 * this stop owns its files, and linting them again from the root doubled a monorepo's lint (urql:
 * the root `eslint .` over every package, on top of each package's own). Tools without such a flag
 * lint everything, as before.
 */
const LEAVE_OUT: Record<string, (dir: string) => string[]> = {
  eslint: (dir) => ['--ignore-pattern', `${dir}/**`],
  ruff: (dir) => ['--extend-exclude', dir],
};

/** The selections, each running gate given the folders under its cwd that another running gate of its preset owns. */
export function leaveToPackages(selections: GateSelection[]): GateSelection[] {
  const running = selections.filter((selection) => selection.run && selection.gate.preset !== undefined && LEAVE_OUT[selection.gate.preset] !== undefined);
  return selections.map((selection) => {
    if (!running.includes(selection)) return selection;
    const owned = running
      .filter((other) => other !== selection && other.gate.preset === selection.gate.preset)
      .map((other) => relative(selection.gate.cwd, other.gate.configDir))
      .filter((dir) => dir !== '' && !dir.startsWith('..'))
      .map((dir) => dir.split(sep).join('/'))
      .sort();
    return owned.length === 0 ? selection : { ...selection, leaveOut: owned };
  });
}

/** The arguments that leave those folders out of the preset's full run. */
export function leaveOutArgs(preset: string | undefined, dirs: readonly string[]): string[] {
  const flag = preset === undefined ? undefined : LEAVE_OUT[preset];
  return flag ? dirs.flatMap(flag) : [];
}
