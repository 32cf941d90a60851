import { isRed, type GateFailures } from './gate-failures.js';
import type { TamperReport } from './sarif.js';

// GitHub shows at most 10 errors and 10 warnings of a step on the diff; the rest stay in the log.
// More than this is noise: the job summary and the report have them all.
const MAX_LINES = 50;

/**
 * GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`) for the change's own
 * failures, so that they show on the pull request's diff: failures gate knows to be pre-existing are
 * left out; a gate that failed naming no failure, timed out or could not start gets one line; tamper
 * findings are errors when they block, warnings when they only warn.
 */
export function annotationLines(gates: readonly GateFailures[], tamper: TamperReport | undefined): string[] {
  const lines: string[] = [];
  for (const gate of gates.filter(isRed)) {
    const fresh = gate.failures.filter((failure) => !failure.preExisting);
    for (const failure of fresh) {
      const text = failure.rule !== undefined || failure.message === '' ? failure.message || failure.id : `${failure.id}: ${failure.message}`;
      lines.push(command('error', { file: failure.path, line: failure.line, title: `${gate.gate}${failure.rule === undefined ? '' : ` (${failure.rule})`}` }, text));
    }
    if (gate.failures.length === 0) lines.push(command('error', { title: gate.gate }, `${gate.gate}: ${gate.outcome} — ${gate.command}`));
  }
  for (const finding of tamper?.findings ?? []) {
    lines.push(command(tamper?.blocking ? 'error' : 'warning', { file: finding.path, line: finding.line, title: 'tamper check' }, finding.detail));
  }
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES - 1), command('notice', { title: 'gate' }, `${lines.length - MAX_LINES + 1} more findings: see the job summary`)];
}

interface Properties {
  file?: string;
  line?: number;
  title?: string;
}

function command(level: 'error' | 'warning' | 'notice', properties: Properties, message: string): string {
  const pairs = Object.entries(properties).flatMap(([key, value]) => (value === undefined || value === '' ? [] : [`${key}=${escapeProperty(String(value))}`]));
  return `::${level}${pairs.length === 0 ? '' : ` ${pairs.join(',')}`}::${escapeData(message)}`;
}

// The runner's own escaping (actions/toolkit, packages/core/src/command.ts): data ends at a newline;
// a property's value also at `,` (the next property) and `:` (the message).
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
