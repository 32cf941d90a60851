import { gateHint } from '../package/gate-command.js';
import { sessionFileName } from '../state/session-file-name.js';
import type { StopRecord, StopTamper } from '../state/stop-record.js';

export type StopGate = StopRecord['gates'][number];

/** Why a verdict is what it is: one word for a script to branch on (docs/ci-verdict.md). */
export type VerdictKind =
  | 'passed'
  | 'no-change'
  | 'already-passed'
  | 'no-gate-triggered'
  | 'escape'
  | 'blocked'
  | 'unchanged-since-block'
  | 'pre-existing'
  | 'no-verdict'
  | 'config-error'
  | 'crash'
  | 'red'
  | 'unchecked'
  | 'tampering'
  | 'no-log'
  | 'no-stops'
  | 'no-such-session'
  | 'no-session-stop';

export interface SessionVerdict {
  verdict: 'pass' | 'fail' | 'none';
  kind: VerdictKind;
  session: string | null;
  time: string | null;
  harness: string | null;
  /** What the session's last stop did, in words. */
  reason: string;
  /** The gates of that stop (for a stop let through unchanged after a block: the block's). */
  gates: StopGate[];
  /** Tamper findings the session's stops let through (allowed or escaped with them); [] with `"tamper": "off"`. */
  tamper: StopTamper[];
}

export interface JudgeOptions {
  /** The config says `"tamper": "off"`: findings in the log do not count. */
  tamperOff?: boolean;
}

const RED = new Set(['failed', 'timed-out', 'not-started']);
// Records that are not a decision of their own: another run's record of the same stop is.
const COPIES = new Set(['second copy of an answered stop', 'the same stop was checked by another run']);
const PASSES = new Map<string, [VerdictKind, string]>([
  ['all passed', ['passed', 'every gate passed']],
  ['no change', ['no-change', 'nothing had changed, so there was nothing to check']],
  ['already passed', ['already-passed', 'this exact tree had already passed every gate']],
  ['no gate triggered', ['no-gate-triggered', 'no gate covers what changed']],
  ['no gate triggered; tampering reported', ['no-gate-triggered', 'no gate covers what changed (a tamper warning was shown)']],
]);

/**
 * The verdict on a session (`wanted`: its id as the harness gave it, or the start of one; default:
 * the session whose stop ended last — a long stop that began before another session's short one
 * is the run that just finished) from the stop log: pass when its last own stop ended green or
 * with nothing to check, fail when it was let through red or unchecked, none without a record.
 * Records are taken in time order (a line written during a trim can land out of place).
 */
export function judgeSession(records: StopRecord[], wanted?: string, options: JudgeOptions = {}): SessionVerdict {
  const own = records.filter((record) => record.event === 'stop' && !COPIES.has(record.reason));
  const session = wanted === undefined ? lastEnded(own)?.session : matchSession(records, wanted);
  if (typeof session === 'object') return session;
  if (session === undefined) {
    const why = records.length === 0 ? 'no stops recorded yet' : `none of the ${records.length} recorded stops is a session's own stop (subagent stops and second copies do not count)`;
    return none('no-stops', null, why);
  }
  const mine = own.filter((record) => record.session === session);
  const last = latest(mine);
  if (!last) {
    const theirs = records.filter((record) => record.session === session);
    const subagent = theirs.filter((record) => record.event === 'subagent-stop').length;
    return none('no-session-stop', session, `session ${session} has ${theirs.length} recorded ${plural(theirs.length, 'stop')} but none of its own (${subagent} by subagents, ${theirs.length - subagent} second copies of a stop another run answered)`);
  }
  const tamper = options.tamperOff ? [] : letThrough(mine);
  const verdict = classify(last, mine);
  if (verdict.verdict === 'pass' && tamper.length > 0) {
    const count = mine.reduce((sum, record) => sum + (isLetThrough(record) ? (record.tamper?.count ?? 0) : 0), 0);
    const reason = `${verdict.reason}, but the session let through ${count} ${plural(count, 'change')} that ${count === 1 ? 'skips, deletes or weakens a test or check' : 'skip, delete or weaken tests or checks'} (the tamper check)`;
    return { session, time: last.time, harness: last.harness, verdict: 'fail', kind: 'tampering', reason, gates: verdict.gates, tamper };
  }
  return { session, time: last.time, harness: last.harness, ...verdict, tamper };
}

/**
 * A later stop cannot clear a finding: the next turn's baseline already holds the change, and a
 * rewritten test is looked for only at the stop right after its block. So every one counts.
 */
function letThrough(mine: StopRecord[]): StopTamper[] {
  return mine.filter(isLetThrough).flatMap((record) => record.tamper?.sample ?? []);
}

function isLetThrough(record: StopRecord): boolean {
  return (record.outcome === 'allow' || record.outcome === 'escape') && (record.tamper?.count ?? 0) > 0;
}

function classify(last: StopRecord, mine: StopRecord[]): Pick<SessionVerdict, 'verdict' | 'kind' | 'reason' | 'gates'> {
  const red = last.gates.filter((gate) => RED.has(gate.status));
  const fail = (kind: VerdictKind, reason: string, gates = last.gates) => ({ verdict: 'fail' as const, kind, reason, gates });
  if (last.killed) return fail('unchecked', killedReason(last, last.killed));
  if (last.outcome === 'escape') {
    const after = last.reason.startsWith('let through') ? last.reason : 'let through after maxBlocks refused stops';
    return fail('escape', `${after} in a row, still red: ${describeRed(red)}`);
  }
  if (last.outcome === 'block') {
    return fail('blocked', `was refused (${describeRed(red) || last.reason}) and the agent never stopped again: the harness ended the turn itself (its own loop cap, a turn limit, a timeout) or it is still running`);
  }
  if (last.outcome === 'error') return fail('crash', `gate failed (${last.reason}), and the stop was let through unchecked`);
  if (last.reason === 'config invalid') return fail('config-error', `the config is invalid, so the stop was let through unchecked ("${gateHint('doctor')}" says where)`);
  if (last.reason === 'unchanged since block') {
    const block = latest(mine.filter((record) => record.outcome === 'block' && record.time <= last.time));
    const still = block ? `still red: ${describeRed(block.gates.filter((gate) => RED.has(gate.status)))}` : 'the refused stop is no longer in the log';
    return fail('unchanged-since-block', `the agent stopped again without changing anything after it was refused, and was let through; ${still}`, block?.gates ?? []);
  }
  const pass = PASSES.get(last.reason);
  if (pass && red.length === 0) return { verdict: 'pass', kind: pass[0], reason: pass[1], gates: last.gates };
  if (last.reason === 'pre-existing failures only') return fail('pre-existing', `let through red: ${describeRed(red)}, each only with failures that were there before the turn`);
  if (red.length > 0 && red.every((gate) => gate.status !== 'failed')) return fail('no-verdict', `let through without a verdict from ${describeRed(red)}`);
  if (red.length > 0) return fail('red', `let through red (${last.reason}): ${describeRed(red)}`);
  return fail('unchecked', `let through unchecked (${last.reason === '' ? 'no reason recorded' : last.reason})`);
}

function killedReason(last: StopRecord, killed: NonNullable<StopRecord['killed']>): string {
  const seconds = Math.round(last.durationMs / 100) / 10;
  const during = killed.running.length > 0 ? ` while ${killed.running.join(', ')} ran` : '';
  const where =
    last.harness === 'claude'
      ? 'the "timeout" (seconds) of gate\'s Stop hook in .claude/settings.json'
      : `the timeout of gate's stop hook in ${last.harness}'s settings`;
  return `the last stop was killed (${killed.signal}) after ${seconds} s${during}, so it was let through unchecked: is the hook's timeout shorter than the gates? Raise ${where} above the gates' total ("${gateHint('doctor')}" checks it)`;
}

/** `test failed (2 pre-existing), lint timed out`. */
export function describeRed(gates: StopGate[]): string {
  return gates.map(describeGate).join(', ');
}

export function describeGate(gate: StopGate): string {
  const status = gate.status === 'not-started' ? 'could not start' : gate.status.replace('-', ' ');
  const notes = [gate.preExisting ? `${gate.preExisting} pre-existing` : '', gate.status === 'failed' ? '' : (gate.reason ?? '')].filter(Boolean);
  return `${gate.name} ${status}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

/** The exact session (as the hook names its files), else the one session whose name starts with it. */
function matchSession(records: StopRecord[], wanted: string): string | SessionVerdict {
  const names = new Set(records.map((record) => record.session));
  const exact = sessionFileName(wanted);
  if (names.has(exact)) return exact;
  const starting = [...names].filter((name) => name.startsWith(wanted));
  if (starting.length === 1 && starting[0] !== undefined) return starting[0];
  if (starting.length > 1) return none('no-such-session', wanted, `${starting.length} sessions start with "${wanted}" (${starting.slice(0, 3).join(', ')}${starting.length > 3 ? ', …' : ''}); give more of the id`);
  if (records.length === 0) return none('no-stops', wanted, 'no stops recorded yet');
  const span = `${records.length} ${plural(records.length, 'stop')} from ${records[0]?.time} to ${records.at(-1)?.time}`;
  return none('no-such-session', wanted, `no stop of session ${wanted} in the log (${span}); the log keeps only its newest half once it passes 1 MiB or 5000 lines, so an older session's stops may have been cut`);
}

/** Newest by time; of equal times, the one written last. */
function lastEnded(records: StopRecord[]): StopRecord | undefined {
  const end = (record: StopRecord) => Date.parse(record.time) + record.durationMs;
  return records.reduce<StopRecord | undefined>((best, record) => (best === undefined || end(record) >= end(best) ? record : best), undefined);
}

function latest(records: StopRecord[]): StopRecord | undefined {
  return records.reduce<StopRecord | undefined>((best, record) => (best === undefined || record.time >= best.time ? record : best), undefined);
}

export function none(kind: VerdictKind, session: string | null, reason: string): SessionVerdict {
  return { verdict: 'none', kind, session, time: null, harness: null, reason, gates: [], tamper: [] };
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
