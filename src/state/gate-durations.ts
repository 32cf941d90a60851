import { join } from 'node:path';
import { readState, writeState } from './state-files.js';

/** How long each gate's last run took (ms), by name: the next stop starts the longest first. */
export type GateDurations = Record<string, number>;

export function durationsPath(stateDir: string): string {
  return join(stateDir, 'gate-durations.json');
}

export function readDurations(path: string): GateDurations {
  return readState(path, isDurations).value ?? {};
}

/** Keeps the duration of each gate that ran to its end (passed or failed); others keep their last. */
export function rememberDurations(path: string, known: GateDurations, results: ReadonlyArray<{ name: string; status: string; cached?: boolean; durationMs: number }>): void {
  const ran = results.filter((result) => (result.status === 'passed' || result.status === 'failed') && !result.cached && result.durationMs > 0);
  if (ran.length === 0) return;
  writeState(path, { ...known, ...Object.fromEntries(ran.map((result) => [result.name, result.durationMs])) });
}

function isDurations(value: unknown): value is GateDurations {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((ms) => typeof ms === 'number' && Number.isFinite(ms));
}
