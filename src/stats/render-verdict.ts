import type { StopTamper } from '../state/stop-record.js';
import { formatTime } from '../report/format-units.js';
import { describeGate, type SessionVerdict } from './judge-session.js';
import { gateHint } from '../package/gate-command.js';

const TAMPER_LINES = 5;

/** `gate verdict`'s exit code: 0 green or nothing to check, 1 let through red or with tampering, 2 no record. */
export const VERDICT_EXIT = { pass: 0, fail: 1, none: 2 } as const;

/** One line saying what the session's last stop did; a second with its gates and, when red, the report; then a line per tamper finding let through. */
export function renderVerdict(verdict: SessionVerdict, report: string | null): string {
  if (verdict.verdict === 'none') return `none: ${sentence(verdict.reason)}`;
  const head = `${verdict.verdict}: session ${verdict.session}, last stop ${formatTime(verdict.time ?? '')} (${verdict.harness}): ${sentence(verdict.reason)}`;
  const details = [
    verdict.gates.length > 0 ? `gates: ${verdict.gates.map(describeGate).join(', ')}` : '',
    verdict.verdict === 'fail' && report !== null ? `report: ${report}` : '',
  ].filter(Boolean);
  const tamper = verdict.tamper.slice(0, TAMPER_LINES).map((finding) => `tamper: ${describeFinding(finding)}`);
  if (verdict.tamper.length > TAMPER_LINES) tamper.push(`tamper: … ${verdict.tamper.length - TAMPER_LINES} more ("${gateHint('log')}" lists them)`);
  return [head, details.join('; '), ...tamper].filter(Boolean).join('\n');
}

/** `src/sum.test.ts:8: expectation changed to the value the code returned (6)`, as the stop reported it. */
export function describeFinding(finding: StopTamper): string {
  return `${finding.path}${finding.line === undefined ? '' : `:${finding.line}`}: ${finding.detail}`;
}

function sentence(text: string): string {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}
