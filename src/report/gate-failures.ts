import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Failure } from '../filters/filter.js';
import { filterOutput } from '../filters/filter-output.js';
import type { GateResult, GateStatus } from '../runner/gate-result.js';
import { describeResult } from './gate-table.js';

/** One failure as the report files name it: its file from the repository root, and whether it is the change's. */
export interface PlacedFailure extends Failure {
  /** From the repository root with `/` separators; absent when the tool named no file, or one outside the repository. */
  path?: string;
  /** Failed on the change's starting state too (gate's evidence: src/verdict/failure-memory.ts). */
  preExisting: boolean;
}

/** A gate as the report files (SARIF, JUnit, annotations, Code Quality) see it. */
export interface GateFailures {
  gate: string;
  /** The filter id: the tool, as far as gate knows it (`generic` for any other). */
  tool: string;
  command: string;
  status: GateStatus;
  /** In words: "failed (exit 1)", "timed out after 60 s". */
  outcome: string;
  durationMs: number;
  failures: PlacedFailure[];
  /** What the agent would read of the output, for a failed gate whose tool names no failure. */
  kept: string[];
}

export interface PlaceOptions {
  repoRoot: string;
  /** Where each gate ran: a tool names files from there. */
  cwdOf: (gate: string) => string;
  /** The failure ids each gate showed on the change's starting state, when gate has a record of it. */
  knownOf: (gate: string) => ReadonlySet<string>;
}

/** Every gate's result with its failures read by its filter, each placed in the repository. */
export function gateFailures(results: readonly GateResult[], options: PlaceOptions): GateFailures[] {
  return results.map((result) => {
    const filtered = result.status === 'failed' ? filterOutput(result.filter, result.output) : undefined;
    const known = options.knownOf(result.name);
    const cwd = options.cwdOf(result.name);
    const failures = (filtered?.failures ?? []).map((failure) => {
      const path = failure.file === undefined ? undefined : repoPath(options.repoRoot, resolve(cwd, failure.file));
      return { ...failure, ...(path === undefined ? {} : { path }), preExisting: known.has(failure.id) };
    });
    const kept = filtered === undefined || failures.length > 0 ? [] : [...filtered.items.flat(), ...filtered.summary];
    return { gate: result.name, tool: result.filter, command: result.command, status: result.status, outcome: describeResult(result), durationMs: result.durationMs, failures, kept };
  });
}

/** Red in CI: failed, timed out, or could not start. */
export function isRed(gate: GateFailures): boolean {
  return gate.status === 'failed' || gate.status === 'timed-out' || gate.status === 'not-started';
}

function repoPath(root: string, path: string): string | undefined {
  const from = relative(root, path);
  if (from === '' || from.startsWith('..') || isAbsolute(from)) return undefined;
  return from.split(sep).join('/');
}
