import { percent } from '../report/format-units.js';
import { HARNESSES, type HistoryCounts, type HistorySummary } from './summarise-history.js';

const LABELS: Record<string, string> = { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', qwen: 'Qwen Code' };

/** `gate history` for a person: one row a count, one column a harness that left transcripts. */
export function renderHistory(summary: HistorySummary, scope: string): string {
  const columns = HARNESSES.filter((harness) => summary.byHarness[harness].transcripts > 0);
  if (columns.length === 0) return `No transcripts found (${scope}). gate history reads what Claude Code, Codex, Gemini CLI and Qwen Code keep on this machine.`;
  const counts: Array<[string, HistoryCounts]> = [['all', summary], ...columns.map((harness): [string, HistoryCounts] => [LABELS[harness] ?? harness, summary.byHarness[harness]])];
  const rows: Array<[string, (c: HistoryCounts) => string]> = [
    ['transcripts', (c) => String(c.transcripts)],
    ['turns', (c) => String(c.turns)],
    ['turns that edited files and ended', (c) => String(c.editedAndEnded)],
    ['  with a passing check after the last edit', (c) => share(c.passed, c.editedAndEnded)],
    ["    by the agent's own command", (c) => String(c.byAgent)],
    ['    by gate', (c) => String(c.byGate)],
    ['  ended with no check', (c) => share(c.unchecked, c.editedAndEnded)],
    ['  still red at the end', (c) => share(c.red, c.editedAndEnded)],
    ['blocked by gate', (c) => String(c.blocked)],
    ['  then fixed in the same turn', (c) => share(c.blockedThenFixed, c.blocked)],
  ];
  const table = [['', ...counts.map(([label]) => label)], ...rows.map(([label, cell]) => [label, ...counts.map(([, c]) => cell(c))])];
  const widths = table[0]?.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length))) ?? [];
  const lines = table.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd());
  const skipped = summary.skippedLines > 0 ? [`${summary.skippedLines} transcript ${summary.skippedLines === 1 ? 'line' : 'lines'} could not be read (torn, or a record this gate does not know) and ${summary.skippedLines === 1 ? 'was' : 'were'} skipped.`] : [];
  return [`gate history: ${scope}`, '', ...lines, '', ...skipped, 'Counts only, read from the transcripts on this machine; nothing leaves it.'].join('\n');
}

function share(part: number, whole: number): string {
  return whole === 0 ? String(part) : `${part} (${percent(part / whole)})`;
}
