// Reading the stop log: for `gate log`, `stats`, `verdict` and `ci`, and the stop's own look back.
import { readFileSync } from 'node:fs';
import { stopLogPath } from './stop-log.js';
import { isStopRecord, type StopRecord } from './stop-record.js';

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
