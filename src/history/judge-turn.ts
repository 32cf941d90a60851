import type { StopRecord } from '../state/stop-record.js';
import type { Turn } from './split-turns.js';

/** What became of a turn that edited files and ended. */
export interface TurnVerdict {
  /** passed: a check passed after the last edit; red: the last word after it was a failure; unchecked: nothing checked it. */
  status: 'passed' | 'red' | 'unchecked';
  /** The agent's own last check after its last edit passed. */
  byAgent: boolean;
  /** gate ran its gates after the last edit and every one passed. */
  byGate: boolean;
  /** gate refused a stop of this turn. */
  blocked: boolean;
  /** …and a later stop of the turn was green. */
  fixed: boolean;
}

// Stop reasons that say the tree was checked and passed (src/stats/judge-session.ts words them).
const CHECKED_GREEN = new Set(['all passed', 'already passed']);
// Green, though nothing ran: after a refusal, the tree went back to its baseline or out of every gate's reach.
const GREEN = new Set([...CHECKED_GREEN, 'no change', 'no gate triggered', 'no gate triggered; tampering reported']);
const COPIES = new Set(['second copy of an answered stop', 'the same stop was checked by another run']);

/**
 * Pure. `stops`: gate's own stops of the turn's session, oldest first; those from the turn's start up
 * to the next prompt are the turn's. gate's last decisive stop after the last edit wins over the
 * agent's command (it came later and ran the configured gates); without one, the agent's last check does.
 */
export function judgeTurn(turn: Turn, stops: StopRecord[]): TurnVerdict {
  const mine = stops.filter((stop) => stop.event === 'stop' && !COPIES.has(stop.reason) && within(stop.time, turn.start, turn.next));
  const afterEdit = mine.filter((stop) => turn.lastEdit !== undefined && time(stop.time) >= time(turn.lastEdit));
  const decisive = afterEdit.filter((stop) => isCheckedGreen(stop) || isRed(stop)).at(-1);
  const lastCheck = turn.checksAfterEdit.at(-1);
  const byAgent = lastCheck?.ok === true;
  const byGate = afterEdit.some(isCheckedGreen) && (decisive === undefined || isCheckedGreen(decisive));
  const red = decisive ? isRed(decisive) : lastCheck?.ok === false;
  const firstBlock = mine.findIndex((stop) => stop.outcome === 'block');
  const blocked = firstBlock >= 0;
  const fixed = blocked && mine.slice(firstBlock + 1).some((stop) => stop.outcome === 'allow' && GREEN.has(stop.reason) && !hasRed(stop));
  const status = red ? 'red' : byAgent || byGate ? 'passed' : 'unchecked';
  return { status, byAgent: byAgent && !red, byGate, blocked, fixed };
}

function isCheckedGreen(stop: StopRecord): boolean {
  return stop.outcome === 'allow' && CHECKED_GREEN.has(stop.reason) && !hasRed(stop);
}

/** Refused, let through after too many refusals, or let through with a gate failing. */
function isRed(stop: StopRecord): boolean {
  if (stop.outcome === 'block' || stop.outcome === 'escape') return true;
  return stop.outcome === 'allow' && (stop.reason === 'unchanged since block' || (hasRed(stop) && stop.reason !== 'pre-existing failures only'));
}

function hasRed(stop: StopRecord): boolean {
  return stop.gates.some((gate) => gate.status === 'failed');
}

function within(at: string, from: string, to: string | undefined): boolean {
  return time(at) >= time(from) && (to === undefined || time(at) < time(to));
}

function time(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
}
