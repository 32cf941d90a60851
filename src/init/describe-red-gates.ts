import { describeOutcome } from '../report/describe-outcome.js';
import { filterOutput } from '../filters/filter-output.js';
import { gateHint } from '../package/gate-command.js';
import type { GateResult } from '../runner/gate-result.js';

const SHOWN_LINES = 8;

/** init's last words: the gates that are red (or could not run) before any agent has changed anything. */
export function describeRedGates(results: GateResult[]): string {
  const red = results.filter((result) => result.status === 'failed' || result.status === 'timed-out');
  const unrun = results.filter((result) => result.status === 'not-started');
  if (red.length === 0 && unrun.length === 0) return '';
  const lines: string[] = [];
  if (red.length > 0) {
    lines.push('', `Red before any agent touches anything (${red.length} of ${results.length} gates): every stop that runs ${red.length === 1 ? 'it' : 'them'} is refused until ${red.length === 1 ? 'it passes' : 'they pass'}.`);
    for (const result of red) {
      lines.push(`  ✖ ${result.name}: ${result.command} — ${describeOutcome(result)}`);
      lines.push(...firstFailure(result).map((line) => `      ${line}`));
      lines.push(`    Fix it, or drop or adjust the "${result.name}" gate in its gate config; "${gateHint(`check ${result.name}`)}" runs it again (full log: ${result.logPath}).`);
    }
  }
  if (unrun.length > 0) {
    lines.push('', `Could not run (no verdict, so a stop would not be checked by ${unrun.length === 1 ? 'it' : 'them'}):`);
    for (const result of unrun) lines.push(`  ? ${result.name}: ${describeOutcome(result)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The first failure as the gate's filter keeps it; else the output's last lines, which name the error. */
function firstFailure(result: GateResult): string[] {
  if (result.status === 'timed-out') return [];
  const filtered = filterOutput(result.filter, result.output);
  const first = filtered.failures.length > 0 ? filtered.items[filtered.itemOf?.[0] ?? 0] : undefined;
  const lines = first ?? result.output.split('\n').filter((line) => line.trim() !== '').slice(-SHOWN_LINES);
  return lines.slice(0, SHOWN_LINES).map((line) => line.trimEnd());
}
