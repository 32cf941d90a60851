import type { StopRecord } from '../../src/state/stop-record.js';

export const SESSION = '6f1d2c3b-0a9e-4e5f-8a7b-1c2d3e4f5a6b';

/** A stop record of SESSION at 09:MM on one day: a no-change stop unless `overrides` say otherwise. */
export function stopAt(minute: number, overrides: Partial<StopRecord> = {}): StopRecord {
  return {
    time: `2025-06-02T09:${String(minute).padStart(2, '0')}:00.000Z`,
    session: SESSION,
    harness: 'claude',
    event: 'stop',
    outcome: 'allow',
    path: 'fast',
    reason: 'no change',
    changed: { count: 0, sample: [] },
    gates: [],
    durationMs: 50,
    reportChars: 0,
    blocks: 0,
    ...overrides,
  };
}
