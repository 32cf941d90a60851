import type { GateRow } from '../report/gate-table.js';
import type { GateResult } from '../runner/gate-result.js';
import type { TamperFinding } from '../tamper/tamper-finding.js';

export type TamperMode = 'block' | 'warn' | 'off';

export interface CiTamper {
  mode: TamperMode;
  /** What the change was read against; undefined when there was no `--base`. */
  base: { ref: string; mergeBase: string } | undefined;
  findings: TamperFinding[];
  /** Why the scan could not look at everything, in words. */
  incomplete: string | undefined;
  changedFiles: number;
  /** Findings an agent's stops in this checkout let through (its latest session, from the stop log). */
  recorded: { session: string; findings: TamperFinding[] } | undefined;
}

export interface CiRun {
  /** Every gate, in config order; those GATE_SKIP left out as "not-run". */
  rows: GateRow[];
  results: GateResult[];
  tamper: CiTamper;
}

export interface CiVerdict {
  ok: boolean;
  /** Gates that failed, timed out or could not start: in CI each of them leaves the change unproven. */
  red: GateResult[];
  tamperBlocks: boolean;
}

export function judgeCi(run: CiRun): CiVerdict {
  const red = run.results.filter((result) => result.status === 'failed' || result.status === 'timed-out' || result.status === 'not-started');
  const found = run.tamper.findings.length + (run.tamper.recorded?.findings.length ?? 0);
  const tamperBlocks = run.tamper.mode === 'block' && found > 0;
  return { ok: red.length === 0 && !tamperBlocks, red, tamperBlocks };
}
