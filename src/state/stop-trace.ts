import { appendStopRecord } from './stop-log.js';
import type { StopRecord } from './stop-record.js';

/** What a stop did, filled in as it goes and written to the stop log once it is decided. */
export interface StopTrace {
  started: number;
  harness: string;
  /** Set once the stop is in a repository with state; until then nothing is recorded. */
  stateDir?: string;
  session: string;
  event?: StopRecord['event'];
  outcome?: StopRecord['outcome'];
  path: StopRecord['path'];
  reason: string;
  changed: StopRecord['changed'];
  gates: StopRecord['gates'];
  reportChars: number;
  /** The report was a reminder of the same failures' earlier one. */
  repeat?: boolean;
  blocks: number;
  tamper?: StopRecord['tamper'];
  killed?: StopRecord['killed'];
  /** Written already (a stop killed mid-way is recorded from its signal handler). */
  recorded?: boolean;
}

export function startTrace(harness: string): StopTrace {
  return { started: Date.now(), harness, session: 'no-session', path: 'fast', reason: '', changed: { count: 0, sample: [] }, gates: [], reportChars: 0, blocks: 0 };
}

export function recordTrace(trace: StopTrace): void {
  if (trace.stateDir === undefined || trace.event === undefined || trace.recorded) return;
  trace.recorded = true;
  appendStopRecord(trace.stateDir, {
    time: new Date(trace.started).toISOString(),
    session: trace.session,
    harness: trace.harness,
    event: trace.event,
    outcome: trace.outcome ?? 'allow',
    path: trace.path,
    reason: trace.reason,
    changed: trace.changed,
    gates: trace.gates,
    durationMs: Date.now() - trace.started,
    reportChars: trace.reportChars,
    ...(trace.repeat ? { repeat: true } : {}),
    blocks: trace.blocks,
    ...(trace.tamper ? { tamper: trace.tamper } : {}),
    ...(trace.killed ? { killed: trace.killed } : {}),
  });
}
