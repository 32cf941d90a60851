import { readStopRecords } from '../state/read-stop-log.js';

export interface LastRun {
  status: 'passed' | 'failed' | 'timed-out';
  durationMs: number;
}

// Enough stops to find a gate that triggers at most now and then; the log holds at most 1000 gates.
const LOOK_BACK = 200;

/** Each of `names`'s last run that ended, at any earlier stop of any session (the stop log), newest first found. */
export function lastGateRuns(stateDir: string, names: readonly string[]): Map<string, LastRun> {
  const found = new Map<string, LastRun>();
  const records = readStopRecords(stateDir, LOOK_BACK);
  for (let i = records.length - 1; i >= 0 && found.size < names.length; i--) {
    for (const gate of records[i]?.gates ?? []) {
      if (found.has(gate.name) || !names.includes(gate.name)) continue;
      if (gate.status === 'passed' || gate.status === 'failed' || gate.status === 'timed-out') found.set(gate.name, { status: gate.status, durationMs: gate.durationMs });
    }
  }
  return found;
}
