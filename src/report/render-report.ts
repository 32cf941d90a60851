import type { Filtered } from '../filters/filter.js';

export interface FailedGate {
  name: string;
  command: string;
  /** "exit 1", "killed by SIGSEGV", "timed out after 60 s". */
  outcome: string;
  filtered: Filtered;
  /** The full log, relative to the project directory. */
  log: string;
}

export interface ReportInput {
  failed: FailedGate[];
  gateCount: number;
  block: number;
  maxBlocks: number;
  budget: number;
}

export const CLOSING =
  'Fix the code so that these checks pass. Do not skip, delete or weaken tests or checks unless the user asked for it.';

/**
 * What the agent reads when its stop is refused. Deterministic (no times, no durations) and never
 * longer than `budget` characters: the budget is shared fairly between the failed gates, and each
 * keeps its first lines in order, then says how many it left out.
 */
export function renderReport(input: ReportInput): string {
  const names = input.failed.map((gate) => gate.name).join(', ');
  const header = `gate: ${input.failed.length} of ${input.gateCount} checks failed (${names}); stop refused, block ${input.block} of ${input.maxBlocks}.`;
  const sections = input.failed.map((gate) => ({
    head: `\n## ${gate.name}: ${gate.outcome}\n$ ${clip(gate.command, 300)}`,
    lines: gate.filtered.lines,
    dropped: gate.filtered.dropped,
    log: gate.log,
  }));
  const fixed = header.length + CLOSING.length + 2 + sections.reduce((sum, section) => sum + section.head.length + footer(section.log, 999_999).length + 2, 0);
  const shares = shareBudget(
    sections.map((section) => size(section.lines)),
    Math.max(0, input.budget - fixed),
  );
  const body = sections.map((section, index) => {
    return [section.head, ...fitLines(section.lines, shares[index] ?? 0, section.log)].join('\n');
  });
  const report = [header, ...body, '', CLOSING].join('\n');
  return report.length <= input.budget ? `${report}\n` : `${report.slice(0, input.budget - 2)}…\n`;
}

/** The lines that fit in `budget` characters, head first, with a count of the rest and where to find them. */
export function fitLines(lines: string[], budget: number, log?: string): string[] {
  const { kept, left, last } = takeLines(lines, budget);
  if (left === 0) return log === undefined ? kept : [...kept, `(full log: ${log})`];
  return [...kept, footer(log, left), ...last];
}

function footer(log: string | undefined, omitted: number): string {
  return log === undefined ? `… ${omitted} more lines` : `… ${omitted} more lines; full log: ${log}`;
}

function size(lines: string[]): number {
  return lines.reduce((sum, line) => sum + line.length + 1, 0);
}

/** Water-filling: small sections take what they need, the rest is split evenly among the big ones. */
export function shareBudget(needs: number[], total: number): number[] {
  const shares = new Array<number>(needs.length).fill(0);
  let remaining = total;
  let open = needs.map((_, index) => index);
  while (open.length > 0) {
    const even = Math.floor(remaining / open.length);
    const small = open.filter((index) => (needs[index] ?? 0) <= even);
    if (small.length === 0) {
      for (const index of open) shares[index] = even;
      break;
    }
    for (const index of small) {
      shares[index] = needs[index] ?? 0;
      remaining -= needs[index] ?? 0;
    }
    open = open.filter((index) => !small.includes(index));
  }
  return shares;
}

/** The first lines that fit, plus the last one (usually the totals) when it still fits too. */
function takeLines(lines: string[], budget: number): { kept: string[]; left: number; last: string[] } {
  if (size(lines) <= budget) return { kept: lines, left: 0, last: [] };
  const last = lines.at(-1) ?? '';
  let room = budget - (last.length + 1);
  const kept: string[] = [];
  for (const line of lines.slice(0, -1)) {
    if (line.length + 1 > room) break;
    kept.push(line);
    room -= line.length + 1;
  }
  const keepLast = room >= 0 && last !== '';
  const left = lines.length - kept.length - (keepLast ? 1 : 0);
  return { kept, left, last: keepLast ? [last] : [] };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
