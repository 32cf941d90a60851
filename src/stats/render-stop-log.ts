import type { StopRecord } from '../state/stop-record.js';
import { formatMs, formatTime, shortSession } from '../report/format-units.js';
import { describeFinding } from './render-verdict.js';
import { gateHint } from '../package/gate-command.js';

const FIRST_PATHS = 3;
const TIMED = new Set(['passed', 'failed', 'timed-out']);

/** `gate log`: one line per stop, oldest first, the newest at the bottom. */
export function renderStopLog(records: StopRecord[], total: number): string {
  const header = records.length < total ? [`The last ${records.length} of ${total} stops recorded ("${gateHint(`log -n ${total}`)}" for all):`] : [];
  return [...header, ...records.map(renderStopLine)].join('\n');
}

export function renderStopLine(record: StopRecord): string {
  const who = `${shortSession(record.session)}  ${record.harness}${record.event === 'subagent-stop' ? ' subagent' : ''}`;
  const head = `${formatTime(record.time)}  ${who}  ${record.outcome.padEnd(6)} ${record.path.padEnd(7)} ${formatMs(record.durationMs).padStart(6)}`;
  const details = [
    record.reason,
    describeChanged(record.changed),
    record.gates.length > 0 ? `gates: ${record.gates.map(describeGate).join(', ')}${record.gatesLeftOut ? ` and ${record.gatesLeftOut} more` : ''}` : '',
    record.reportChars > 0 ? `report ${record.reportChars} chars` : '',
    record.blocks > 0 ? `${record.blocks} ${record.blocks === 1 ? 'block' : 'blocks'} in a row` : '',
    record.killed && record.killed.running.length > 0 ? `running when killed: ${record.killed.running.join(', ')}` : '',
    describeTamper(record.tamper),
  ];
  return `${head}  ${details.filter(Boolean).join('; ')}`;
}

function describeTamper(tamper: StopRecord['tamper']): string {
  const first = tamper?.sample[0];
  if (!tamper || !first) return '';
  const more = tamper.count - 1;
  return `tamper: ${describeFinding(first)}${more > 0 ? ` +${more} more` : ''}`;
}

function describeChanged(changed: StopRecord['changed']): string {
  if (changed.count === 0) return 'nothing changed';
  const shown = changed.sample.slice(0, FIRST_PATHS);
  const more = changed.count - shown.length;
  return `${changed.count} changed: ${shown.join(', ')}${more > 0 ? ` +${more} more` : ''}`;
}

function describeGate(gate: StopRecord['gates'][number]): string {
  const notes = [
    gate.ahead ? 'ran while the agent worked' : '',
    gate.reason ?? '',
    gate.preExisting ? `${gate.preExisting} pre-existing` : '',
    gate.flaky && gate.flaky.length > 0 ? `flaky: ${gate.flaky.join(', ')}` : '',
  ].filter(Boolean);
  const duration = TIMED.has(gate.status) ? ` ${formatMs(gate.durationMs)}` : '';
  return `${gate.name} ${gate.status}${duration}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}
