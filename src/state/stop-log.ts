// Writing the stop log: one line per stop appended whole, the file kept within its bound.
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { boundRecord, type StopRecord } from './stop-record.js';

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

function describe(path: string, error: unknown): string {
  return `cannot record the stop in ${path}: ${error instanceof Error ? error.message : String(error)}`;
}
