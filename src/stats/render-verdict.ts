import { formatTime } from './format-units.js';
import { describeGate, type SessionVerdict } from './judge-session.js';

/** `gate verdict`'s exit code: 0 green or nothing to check, 1 let through red, 2 no record. */
export const VERDICT_EXIT = { pass: 0, fail: 1, none: 2 } as const;

/** One line saying what the session's last stop did; a second with its gates and, when red, the report. */
export function renderVerdict(verdict: SessionVerdict, report: string | null): string {
  if (verdict.verdict === 'none') return `none: ${sentence(verdict.reason)}`;
  const head = `${verdict.verdict}: session ${verdict.session}, last stop ${formatTime(verdict.time ?? '')} (${verdict.harness}): ${sentence(verdict.reason)}`;
  const details = [
    verdict.gates.length > 0 ? `gates: ${verdict.gates.map(describeGate).join(', ')}` : '',
    verdict.verdict === 'fail' && report !== null ? `report: ${report}` : '',
  ].filter(Boolean);
  return details.length > 0 ? `${head}\n${details.join('; ')}` : head;
}

function sentence(text: string): string {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}
