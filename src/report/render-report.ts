import type { Filtered } from '../filters/filter.js';
import type { FailedGate } from './failed-gate.js';
import { sliceWhole } from '../filters/whole-text.js';
import { dropRepeatedFindings } from './drop-repeated-findings.js';
import { groupFailures } from './group-failures.js';

export type { FailedGate } from './failed-gate.js';

export interface ReportInput {
  failed: FailedGate[];
  gateCount: number;
  block: number;
  maxBlocks: number;
  budget: number;
  /** In place of the stop's first line, for a report that is not a refused stop (gate mcp). */
  header?: string;
  /** The changed files (absolute): their own tests' failures are shown first (src/report/group-failures.ts). */
  changed?: string[];
  /** Whole sections after the failed gates (the tamper check, gates red before the turn): always shown. */
  sections?: Array<{ title: string; lines: string[] }>;
}

export const CLOSING =
  'Fix the code so that these checks pass. Do not skip, delete or weaken tests or checks unless the user asked for it.';

/**
 * What the agent reads when its stop is refused. Deterministic (no times, no durations) and never
 * longer than `budget` characters: the budget is shared fairly between the failed gates; each keeps
 * its first failures whole and in order, says how many it left out and where the log is, and ends
 * with the tool's totals.
 */
export function renderReport(given: ReportInput): string {
  const grouped = dropRepeatedFindings(given.failed).map((gate) => ({ gate, ...groupFailures(gate.filtered, given.changed ?? [], gate.cwd) }));
  const input = { ...given, failed: grouped.map(({ gate, filtered }) => ({ ...gate, filtered })) };
  const names = input.failed.map((gate) => gate.name).join(', ');
  const header =
    input.header ??
    (input.failed.length > 0
      ? `gate: ${input.failed.length} of ${input.gateCount} checks failed (${names}); stop refused, block ${input.block} of ${input.maxBlocks}.`
      : `gate: stop refused, block ${input.block} of ${input.maxBlocks}.`);
  const heads = input.failed.map((gate) => `\n## ${gate.name}: ${gate.outcome}\n$ ${clip(gate.command, 300)}`);
  const tails = input.failed.map((gate) => (gate.notes ?? []).map((note) => clip(note, 600)));
  const extra = (input.sections ?? []).map((section) => [`\n## ${section.title}`, ...section.lines.map((line) => clip(line, 300))].join('\n'));
  const fixed =
    header.length +
    CLOSING.length +
    2 +
    extra.reduce((sum, section) => sum + section.length + 1, 0) +
    input.failed.reduce((sum, gate, index) => sum + (heads[index]?.length ?? 0) + size(tails[index] ?? []) + footer(gate.filtered.noun, 999_999, gate.log).length + 2, 0);
  const shares = shareBudget(
    input.failed.map((gate) => size(gate.filtered.items.flat()) + size(gate.filtered.summary)),
    Math.max(0, input.budget - fixed),
  );
  const body = input.failed.map((gate, index) => [heads[index] ?? '', ...fitFiltered(gate.filtered, shares[index] ?? 0, gate.log, grouped[index]?.counts), ...(tails[index] ?? [])].join('\n'));
  const report = [header, ...body, ...extra, '', CLOSING].join('\n');
  return report.length <= input.budget ? `${report}\n` : `${sliceWhole(report, input.budget - 2)}…\n`;
}

/**
 * The report, also within `maxBytes` UTF-8 bytes when the harness counts bytes (Codex cuts a block
 * message past 10,000): text outside ASCII takes up to 3 bytes a character, so the character
 * budget shrinks until the bytes fit.
 */
export function renderReportWithin(maxBytes: number | undefined, input: ReportInput): string {
  let report = renderReport(input);
  for (let budget = input.budget; maxBytes !== undefined && Buffer.byteLength(report) > maxBytes && budget > 0; ) {
    budget = Math.floor((budget * maxBytes) / Buffer.byteLength(report)) - 1;
    report = renderReport({ ...input, budget });
  }
  return report;
}

/**
 * The items that fit in `budget` characters, first ones first and each whole (a first item too
 * long on its own is cut), then a count of the rest (`counts`: how many failures each item shows,
 * one by default) and where to find them, then the totals.
 */
export function fitFiltered(filtered: Filtered, budget: number, log?: string, counts?: readonly number[]): string[] {
  const summary = filtered.summary;
  let room = budget - size(summary);
  const kept: string[] = [];
  let taken = 0;
  for (const item of filtered.items) {
    const cost = size(item);
    if (cost > room) {
      if (taken === 0 && room > 80) kept.push(...cutToFit(item, room - 40));
      break;
    }
    kept.push(...item);
    room -= cost;
    taken++;
  }
  const left = filtered.items.slice(taken).reduce((sum, _, index) => sum + (counts?.[taken + index] ?? 1), 0);
  if (left === 0) return [...kept, ...summary, ...(log === undefined ? [] : [`(full log: ${log})`])];
  return [...kept, footer(filtered.noun, left, log), ...summary];
}

function footer(noun: string, omitted: number, log: string | undefined): string {
  const count = `… ${omitted} more ${omitted === 1 ? noun.replace(/s$/, '') : noun}`;
  return log === undefined ? count : `${count}; full log: ${log}`;
}

function cutToFit(lines: string[], room: number): string[] {
  const kept: string[] = [];
  for (const line of lines) {
    if (line.length + 1 > room) break;
    kept.push(line);
    room -= line.length + 1;
  }
  return kept;
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

function clip(text: string, max: number): string {
  return text.length > max ? `${sliceWhole(text, max - 1)}…` : text;
}

