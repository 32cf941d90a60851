import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** One stop as gate decided it: a line of `stops.jsonl`. */
export interface StopRecord {
  /** ISO 8601. */
  time: string;
  /** The session's state file name (already safe). */
  session: string;
  harness: string;
  event: 'stop' | 'subagent-stop';
  outcome: 'allow' | 'block' | 'escape' | 'error';
  /** fast: decided without running any gate. */
  path: 'fast' | 'checked';
  /** Short words: 'no change', 'already passed', 'all passed', 'failed', 'config invalid' … */
  reason: string;
  changed: { count: number; sample: string[] };
  gates: Array<{ name: string; status: StopGateStatus; durationMs: number; reason?: string; tier?: string; flaky?: string[]; preExisting?: number; baselineMs?: number }>;
  /** The whole hook, start to decision. */
  durationMs: number;
  /** 0 when nothing was reported to the agent. */
  reportChars: number;
  /** A block whose failures were exactly those of the report the agent had: it got a reminder instead. */
  repeat?: boolean;
  /** The session's consecutive blocks after this stop. */
  blocks: number;
  /** What the tamper check found at this stop (docs/tamper-guard.md); absent when it found nothing. */
  tamper?: { count: number; sample: StopTamper[] };
  /** Gates past the log's bound of 1000, counted. */
  gatesLeftOut?: number;
  /** The stop was killed (by the harness on its hook timeout, or by a person) before it was decided. */
  killed?: { signal: string; running: string[] };
}

export interface StopTamper {
  path: string;
  line?: number;
  kind: string;
  detail: string;
}

export type StopGateStatus = 'passed' | 'failed' | 'timed-out' | 'not-started' | 'skipped' | 'cached' | 'not-run';

export interface StopLogBound {
  maxBytes: number;
  maxLines: number;
}

/** Past either limit the file is cut to its newest half. */
export const STOP_LOG_BOUND: StopLogBound = { maxBytes: 1024 * 1024, maxLines: 5000 };

/** A log failure never changes a stop's outcome: it is reported here, not thrown. */
export interface AppendResult {
  written: boolean;
  trimmed: boolean;
  problem?: string;
}

const SAMPLE = 20;
const TAMPER_SAMPLE = 10;
const TEXT = 200;
const FILE_PATH = 300;
const MAX_GATES = 1000;
const DETAILED_GATES = 50;
// Counting lines means reading the file: done each time the file grows past another sixteenth of its byte bound.
const LINE_CHECKS = 16;
const LOCK_STALE_MS = 10_000;

export function stopLogPath(stateDir: string): string {
  return join(stateDir, 'stops.jsonl');
}

/**
 * Appends one line with a single write(2) on an O_APPEND descriptor: on a local file system the
 * kernel places and copies it under the file's lock, so lines from concurrent stops never interleave.
 */
export function appendStopRecord(stateDir: string, record: StopRecord, bound: StopLogBound = STOP_LOG_BOUND): AppendResult {
  const path = stopLogPath(stateDir);
  const line = Buffer.from(`${JSON.stringify(boundRecord(record))}\n`);
  let size: number;
  let replaced: boolean;
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const fd = openSync(path, 'a', 0o600);
    try {
      const written = writeSync(fd, line);
      if (written < line.length) throw new Error(`only ${written} of ${line.length} bytes written`);
      const stats = fstatSync(fd);
      size = stats.size;
      replaced = stats.nlink === 0;
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { written: false, trimmed: false, problem: describe(path, error) };
  }
  try {
    // A trim renamed a new file over ours between our open and our write: make sure the line made it across.
    if (replaced) {
      appendUnlessPresent(path, line);
      return { written: true, trimmed: false };
    }
    return { written: true, trimmed: isOverBound(path, size, line.length, bound) && trimStopLog(path, bound) };
  } catch (error) {
    return { written: true, trimmed: false, problem: describe(path, error) };
  }
}

/** Newest last; corrupt, partial and foreign lines are skipped. */
export function readStopRecords(stateDir: string, limit = Number.POSITIVE_INFINITY): StopRecord[] {
  let text: string;
  try {
    text = readFileSync(stopLogPath(stateDir), 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n');
  const records: StopRecord[] = [];
  for (let i = lines.length - 1; i >= 0 && records.length < limit; i--) {
    const record = parseLine(lines[i] ?? '');
    if (record) records.push(record);
  }
  return records.reverse();
}

/** The whole log for a reader that must say what it could not read: `missing` when there is no file, `problem` when it can't be read. */
export function readStopLog(stateDir: string): { records: StopRecord[]; unreadable: number; newestUnreadable: boolean; missing: boolean; problem?: string } {
  let text: string;
  try {
    text = readFileSync(stopLogPath(stateDir), 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return { records: [], unreadable: 0, newestUnreadable: false, missing: true };
    const problem = `cannot read ${stopLogPath(stateDir)}: ${error instanceof Error ? error.message : String(error)}`;
    return { records: [], unreadable: 0, newestUnreadable: false, missing: false, problem };
  }
  const records: StopRecord[] = [];
  let unreadable = 0;
  let newestUnreadable = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const record = parseLine(line);
    if (record) records.push(record);
    else unreadable++;
    newestUnreadable = record === undefined;
  }
  return { records, unreadable, newestUnreadable, missing: false };
}

function parseLine(line: string): StopRecord | undefined {
  // After a short write (a full disk), the next record is glued to the torn one: it still starts whole.
  for (const start of new Set([0, line.lastIndexOf('{"time":')])) {
    if (start < 0) continue;
    try {
      const value: unknown = JSON.parse(line.slice(start));
      if (isStopRecord(value)) return value;
    } catch {
      // Not this start; try the next.
    }
  }
  return undefined;
}

function isOverBound(path: string, size: number, added: number, bound: StopLogBound): boolean {
  if (size > bound.maxBytes) return true;
  const step = bound.maxBytes / LINE_CHECKS;
  return Math.floor(size / step) !== Math.floor((size - added) / step) && countLines(readFileSync(path)) > bound.maxLines;
}

/**
 * Keeps the newest half, written to a temp file and renamed over the log. One trimmer at a time (a
 * lock file); lines appended to the old file after it was read are carried over to the new one, so
 * nothing is lost but the oldest half. A line carried over after the rename can land behind lines
 * written just after it: the order is exact except around a trim.
 */
function trimStopLog(path: string, bound: StopLogBound): boolean {
  const lock = `${path}.trim`;
  if (!takeLock(lock)) return false;
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const text = wholeLines(readAll(fd, 0));
    writeFileSync(temp, newestHalf(text, bound), { mode: 0o600 });
    // Lines that came while the temp file was written go in before the rename, in their order.
    const meanwhile = wholeLines(readAll(fd, text.length));
    if (meanwhile.length > 0) appendBytes(temp, meanwhile);
    renameSync(temp, path);
    // A line still being written is not whole yet: its writer sees its file replaced and appends it again.
    const late = wholeLines(readAll(fd, text.length + meanwhile.length));
    if (late.length > 0) appendBytes(path, late);
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    rmSync(lock, { force: true });
  }
}

/** `text` ends with a newline; walks back line by line while the kept part fits half of either limit. */
function newestHalf(text: Buffer, bound: StopLogBound): Buffer {
  let start = text.length;
  for (let lines = 0; start > 0 && lines < Math.floor(bound.maxLines / 2); lines++) {
    const previous = start >= 2 ? text.lastIndexOf(0x0a, start - 2) + 1 : 0;
    if (text.length - previous > bound.maxBytes / 2) break;
    start = previous;
  }
  return text.subarray(start);
}

/** Waits for the trim to finish carrying lines over, then appends the line if it isn't there. */
function appendUnlessPresent(path: string, line: Buffer): void {
  const deadline = Date.now() + 500;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while ((lockAge(`${path}.trim`) ?? LOCK_STALE_MS) < LOCK_STALE_MS && Date.now() < deadline) Atomics.wait(pause, 0, 0, 5);
  if (!readFileSync(path).includes(line)) appendBytes(path, line);
}

function appendBytes(path: string, bytes: Buffer): void {
  const fd = openSync(path, 'a', 0o600);
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      return true;
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) return false;
    }
    const age = lockAge(lock);
    if (age !== undefined && age < LOCK_STALE_MS) return false;
    // Gone already (try again), or left by a process that died mid-trim: a trim takes milliseconds.
    if (age !== undefined) rmSync(lock, { force: true });
  }
  return false;
}

function lockAge(lock: string): number | undefined {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return undefined;
  }
}

function readAll(fd: number, from: number): Buffer {
  const size = fstatSync(fd).size;
  const buffer = Buffer.alloc(Math.max(0, size - from));
  let done = 0;
  while (done < buffer.length) {
    const read = readSync(fd, buffer, done, buffer.length - done, from + done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done);
}

function wholeLines(bytes: Buffer): Buffer {
  return bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
}

function countLines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) count++;
  return count;
}

/** Fixed key order (the reader finds a record's start by `{"time":`) and every field bounded. */
function boundRecord(record: StopRecord): StopRecord {
  return {
    time: record.time,
    session: clip(record.session, TEXT),
    harness: clip(record.harness, TEXT),
    event: record.event,
    outcome: record.outcome,
    path: record.path,
    reason: clip(record.reason, TEXT),
    changed: { count: record.changed.count, sample: record.changed.sample.slice(0, SAMPLE).map((file) => clip(file, FILE_PATH)) },
    gates: record.gates.slice(0, MAX_GATES).map((gate, index) => {
      // Every gate is kept (`gate verdict` judges a session by them); the words only for the first
      // ones and those not green, so a stop over a big monorepo's gates stays one short line.
      const detailed = index < DETAILED_GATES || (gate.status !== 'passed' && gate.status !== 'cached');
      return {
        name: clip(gate.name, TEXT),
        status: gate.status,
        durationMs: Math.round(gate.durationMs),
        ...(gate.reason === undefined || !detailed ? {} : { reason: clip(gate.reason, TEXT) }),
        ...(gate.tier === undefined || !detailed ? {} : { tier: clip(gate.tier, TEXT) }),
        ...(gate.flaky === undefined ? {} : { flaky: gate.flaky.slice(0, SAMPLE).map((test) => clip(test, TEXT)) }),
        ...(gate.preExisting === undefined ? {} : { preExisting: gate.preExisting }),
        ...(gate.baselineMs === undefined ? {} : { baselineMs: Math.round(gate.baselineMs) }),
      };
    }),
    ...(record.gates.length > MAX_GATES ? { gatesLeftOut: record.gates.length - MAX_GATES } : {}),
    durationMs: Math.round(record.durationMs),
    reportChars: record.reportChars,
    ...(record.repeat ? { repeat: true } : {}),
    blocks: record.blocks,
    ...(record.tamper === undefined ? {} : { tamper: { count: record.tamper.count, sample: record.tamper.sample.slice(0, TAMPER_SAMPLE).map(boundTamper) } }),
    ...(record.killed === undefined ? {} : { killed: { signal: clip(record.killed.signal, 20), running: record.killed.running.slice(0, SAMPLE).map((name) => clip(name, TEXT)) } }),
  };
}

function boundTamper(finding: StopTamper): StopTamper {
  return { path: clip(finding.path, FILE_PATH), ...(finding.line === undefined ? {} : { line: finding.line }), kind: clip(finding.kind, 40), detail: clip(finding.detail, TEXT) };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function describe(path: string, error: unknown): string {
  return `cannot record the stop in ${path}: ${error instanceof Error ? error.message : String(error)}`;
}

const OUTCOMES = ['allow', 'block', 'escape', 'error'];
const STATUSES = ['passed', 'failed', 'timed-out', 'not-started', 'skipped', 'cached', 'not-run'];

function isStopRecord(value: unknown): value is StopRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const changed = r['changed'] as Record<string, unknown> | null | undefined;
  return (
    ['time', 'session', 'harness', 'reason'].every((key) => typeof r[key] === 'string') &&
    ['durationMs', 'reportChars', 'blocks'].every((key) => typeof r[key] === 'number') &&
    (r['event'] === 'stop' || r['event'] === 'subagent-stop') &&
    OUTCOMES.includes(r['outcome'] as string) &&
    (r['path'] === 'fast' || r['path'] === 'checked') &&
    typeof changed === 'object' &&
    changed !== null &&
    typeof changed['count'] === 'number' &&
    isStrings(changed['sample']) &&
    Array.isArray(r['gates']) &&
    r['gates'].every(isGateEntry) &&
    (r['tamper'] === undefined || isTamper(r['tamper'])) &&
    (r['killed'] === undefined || isKilled(r['killed']))
  );
}

function isTamper(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { count, sample } = value as Record<string, unknown>;
  return typeof count === 'number' && Array.isArray(sample) && sample.every(isTamperFinding);
}

function isTamperFinding(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { path, line, kind, detail } = value as Record<string, unknown>;
  return typeof path === 'string' && (line === undefined || typeof line === 'number') && typeof kind === 'string' && typeof detail === 'string';
}

function isKilled(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { signal, running } = value as Record<string, unknown>;
  return typeof signal === 'string' && isStrings(running);
}

function isGateEntry(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const g = value as Record<string, unknown>;
  return (
    typeof g['name'] === 'string' &&
    STATUSES.includes(g['status'] as string) &&
    typeof g['durationMs'] === 'number' &&
    (g['reason'] === undefined || typeof g['reason'] === 'string') &&
    (g['tier'] === undefined || typeof g['tier'] === 'string') &&
    (g['flaky'] === undefined || isStrings(g['flaky'])) &&
    (g['preExisting'] === undefined || typeof g['preExisting'] === 'number') &&
    (g['baselineMs'] === undefined || typeof g['baselineMs'] === 'number')
  );
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
