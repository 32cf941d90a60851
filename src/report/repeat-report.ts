import type { Failure } from '../filters/filter.js';
import { CLOSING } from './render-report.js';

export interface ShownGate {
  name: string;
  /** The failures its report shows (those from before the turn left out). */
  failures: Failure[];
}

/**
 * What identifies a refused stop's failures: each failed gate with the ids of the failures its
 * report shows. Undefined when one of them shows none by id (its output is all there is to compare,
 * and that carries timings): such a report is always sent whole.
 */
export function failuresKey(gates: readonly ShownGate[]): string | undefined {
  if (gates.length === 0 || gates.some((gate) => gate.failures.length === 0)) return undefined;
  return JSON.stringify([...gates].sort((a, b) => (a.name < b.name ? -1 : 1)).map((gate) => [gate.name, gate.failures.map((failure) => failure.id).sort()]));
}

export interface ReminderInput {
  gates: readonly ShownGate[];
  gateCount: number;
  block: number;
  maxBlocks: number;
  /** The block whose report the agent was sent whole. */
  reportedAt: number;
  /** Where that report is kept, for an agent whose context no longer holds it. */
  reportPath: string;
  /** Paths under it are said relative to it. */
  root: string;
}

const LISTED = 20;

/**
 * The agent stopped again with exactly the failures of a report it was already sent: it has that
 * report. The same header, the failures by name and place, and where the report is — not the same
 * thousands of characters again.
 */
export function renderReminder(input: ReminderInput): string {
  const names = input.gates.map((gate) => gate.name).join(', ');
  const lines = input.gates.flatMap((gate) => gate.failures.map((failure) => `- ${gate.name}: ${shorten(failure.id, input.root)}${place(failure, input.root)}`));
  const more = lines.length > LISTED ? [`- and ${lines.length - LISTED} more`] : [];
  return [
    `gate: ${input.gates.length} of ${input.gateCount} checks failed (${names}); stop refused, block ${input.block} of ${input.maxBlocks}.`,
    `The same failures as at block ${input.reportedAt}, whose report you were sent then (it is also in ${input.reportPath}):`,
    ...lines.slice(0, LISTED),
    ...more,
    '',
    CLOSING,
    '',
  ].join('\n');
}

function shorten(text: string, root: string): string {
  return text.split(`${root}/`).join('');
}

function place(failure: Failure, root: string): string {
  if (failure.file === undefined) return '';
  const file = shorten(failure.file, root);
  if (shorten(failure.id, root).includes(file)) return failure.line === undefined ? '' : `, line ${failure.line}`;
  return ` (${file}${failure.line === undefined ? '' : `:${failure.line}`})`;
}
