import type { ResolvedGate } from '../config/load-config.js';
import type { FastTier } from '../config/schema.js';
import { pathMatcher } from '../plan/path-matcher.js';

// What every planner shares: the registry (fast-plan.ts) imports the planners, never they it.

export interface FastInput {
  gate: ResolvedGate & { tier: FastTier };
  /** The changed files that triggered the gate, relative to its cwd, deleted ones included. */
  files: string[];
  /** `fast`: a stop or `gate check`; `full`: `--all`, `"related": false`, or a change not narrowed down. */
  mode: 'fast' | 'full';
  /** The gate's cache folder under gate's state (what `{cache}` expands to), for a planner that writes a file for the tool. */
  cacheDir?: string;
}

/**
 * What a run adds to its environment: each value joins the gate's own (PYTHONPATH with the path
 * delimiter, PYTEST_ADDOPTS with a space) rather than replacing it.
 */
export type RunEnv = Partial<Record<'PYTHONPATH' | 'PYTEST_ADDOPTS' | 'STOPGATE_LEAVE_OUT', string>>;

/** What a gate runs this time, and why, in words for `gate status` and the stop log. */
export type FastPlan =
  /** The tier's command (`tier.run`, or `run` when a planner chose another), `{files}` = targets. */
  | { kind: 'fast'; run: string[]; targets: string[]; why: string; env?: RunEnv }
  /** The gate's full command (`run` replaces it when the repository needs another one, as `tsc -b`). */
  | { kind: 'full'; why: string; run?: string[] }
  /** The change reaches no test: nothing to run. */
  | { kind: 'none'; why: string };

export type Planner = (input: FastInput) => Promise<FastPlan>;

/**
 * What sends every narrowing planner to the full run before it looks at the repository: the full run
 * asked for, no changed file to narrow to, or a changed file (config, lockfile) that affects every
 * `unit` (crate, package, test …). Undefined: go on narrowing.
 */
export function fullRunFirst({ gate, files, mode }: FastInput, unit: string): FastPlan | undefined {
  if (mode === 'full') return { kind: 'full', why: 'the full run' };
  if (files.length === 0) return { kind: 'full', why: 'no changed file to narrow the run to' };
  const needsFullRun = pathMatcher(gate.tier.fullRunOn);
  const global = files.find((file) => needsFullRun(file));
  return global === undefined ? undefined : { kind: 'full', why: `${global} changed, which affects every ${unit}` };
}
