import { join } from 'node:path';
import type { AskedStreak } from '../asking/decide-asking.js';
import { isSnapshot, type Snapshot } from '../snapshot/snapshot.js';
import { isStartState, type StartState } from '../start/start-state.js';
import { isRememberedTests, type RememberedTest } from './remembered-test.js';
import { readState, writeState, type ReadResult } from './state-files.js';

/** What gate remembers per agent session between stops. */
export interface SessionState {
  /** The tree as the user's prompt found it: this turn's baseline. */
  baseline?: Snapshot;
  /** The same start's whole tree and environment, for judging which failures were already there. */
  start?: StartState;
  /** Consecutive blocks so far; any allowed stop resets it. */
  blocks: number;
  /** The tree at the last block: a stop with the same tree is let through at once. */
  blockedDigest?: string;
  /** When the harness fired the last stop gate answered (its `timestamp`): a second copy of that stop gets no second answer. */
  answeredAt?: number;
  /** Names of the gates that failed at the last block, for the escape notice. */
  red?: string[];
  /** The human was already told about a flood of untracked files this session. */
  hinted?: boolean;
  /** Changed workspace packages without a gate config (repository-relative), already named to the human this session. */
  named?: string[];
  /**
   * Stops in a row let through red because the agent asked the human (`whenAsking`), and the gates
   * that were red at the last one; kept across turns (each such stop ends one).
   */
  asked?: AskedStreak;
  /** The failures whose report the agent was last sent whole, and at which block: a block in a row with the same ones gets a reminder. */
  reported?: { key: string; block: number };
  /** The failing tests at the last block, for the next stop's tamper check (src/tamper/rewritten-expectations.ts). */
  tests?: RememberedTest[];
}

/** The last tree on which every gate that had to run passed. */
export interface PassedState {
  snapshot: Snapshot;
  configHash: string;
  /**
   * The gates not known to pass in full on it: their pass was narrowed (a fast tier, a cached
   * verdict) or they did not run, with no full pass of an earlier tree to continue from. A baseline
   * copy still runs for their failures. Absent (an older gate's file): none.
   */
  unsure?: string[];
}

export function sessionPath(stateDir: string, fileName: string): string {
  return join(stateDir, 'sessions', `${fileName}.json`);
}

export function passedPath(stateDir: string): string {
  return join(stateDir, 'passed.json');
}

export function readSession(path: string): ReadResult<SessionState> {
  return readState(path, isSessionState);
}

export function writeSession(path: string, state: SessionState): void {
  writeState(path, state);
}

export function readPassed(path: string): ReadResult<PassedState> {
  return readState(path, isPassedState);
}

export function writePassed(path: string, state: PassedState): void {
  writeState(path, state);
}

function isSessionState(value: unknown): value is SessionState {
  if (typeof value !== 'object' || value === null) return false;
  const { baseline, start, blocks, blockedDigest, answeredAt, red, hinted, named, reported, asked, tests } = value as Record<string, unknown>;
  return (
    Number.isInteger(blocks) &&
    (blocks as number) >= 0 &&
    (baseline === undefined || isSnapshot(baseline)) &&
    (start === undefined || isStartState(start)) &&
    (blockedDigest === undefined || typeof blockedDigest === 'string') &&
    (answeredAt === undefined || Number.isFinite(answeredAt)) &&
    (red === undefined || (Array.isArray(red) && red.every((name) => typeof name === 'string'))) &&
    (hinted === undefined || typeof hinted === 'boolean') &&
    (named === undefined || (Array.isArray(named) && named.every((dir) => typeof dir === 'string'))) &&
    (reported === undefined || isReported(reported)) &&
    (asked === undefined || isAskedStreak(asked)) &&
    (tests === undefined || isRememberedTests(tests))
  );
}

function isReported(value: unknown): value is { key: string; block: number } {
  if (typeof value !== 'object' || value === null) return false;
  const { key, block } = value as Record<string, unknown>;
  return typeof key === 'string' && Number.isInteger(block);
}

function isAskedStreak(value: unknown): value is AskedStreak {
  if (typeof value !== 'object' || value === null) return false;
  const { stops, red } = value as Record<string, unknown>;
  return Number.isInteger(stops) && (stops as number) > 0 && Array.isArray(red) && red.every((name) => typeof name === 'string');
}

export function isPassedState(value: unknown): value is PassedState {
  if (typeof value !== 'object' || value === null) return false;
  const { snapshot, configHash, unsure } = value as Record<string, unknown>;
  return isSnapshot(snapshot) && typeof configHash === 'string' && (unsure === undefined || (Array.isArray(unsure) && unsure.every((name) => typeof name === 'string')));
}
