import { describeOutcome } from './describe-outcome.js';
import type { GateResult, GateStatus } from '../runner/gate-result.js';
import { formatMs } from './format-units.js';

export interface GateRow {
  name: string;
  status: GateStatus | 'not-run';
  outcome: string;
  durationMs: number;
}

/** A gate's result in words: "passed", "skipped (why)", "failed (exit 1)", "timed out after 60 s". */
export function describeResult(result: GateResult): string {
  if (result.status === 'passed') return 'passed';
  if (result.status === 'skipped') return `skipped (${result.detail ?? 'nothing to run on'})`;
  return describeOutcome(result);
}

const MARK: Record<GateRow['status'], string> = { passed: '✅', skipped: '➖', failed: '❌', 'timed-out': '⏱️', 'not-started': '⚠️', 'not-run': '➖' };

/** A Markdown table, gate | outcome | time, for a pull request or a job summary. */
export function gateTable(rows: GateRow[]): string[] {
  return [
    '| gate | outcome | time |',
    '|---|---|---|',
    ...rows.map((row) => `| ${cell(row.name)} | ${MARK[row.status]} ${cell(row.outcome)} | ${row.status === 'not-run' ? '' : formatMs(row.durationMs)} |`),
  ];
}

// A pipe ends the cell, a newline the row, and `<` may open HTML: names and outcomes come from configs and tools.
function cell(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;');
}
