import { join } from 'node:path';
import type { GateResult } from '../runner/gate-result.js';
import type { Environment } from '../start/environment.js';
import { readState, writeState } from './state-files.js';

/**
 * What the last checks ahead of the stop found (src/commands/ahead.ts): each gate's result under its
 * verdict key on the tree it ran on, and the environment it ran in. Only the latest tree's, written
 * whole each time.
 */
export interface AheadResults {
  environment: Environment;
  results: Record<string, GateResult>;
}

export function aheadResultsPath(stateDir: string): string {
  return join(stateDir, 'ahead', 'results.json');
}

export function readAheadResults(path: string): AheadResults | undefined {
  return readState(path, isAheadResults).value;
}

export function writeAheadResults(path: string, found: AheadResults): void {
  writeState(path, found);
}

function isAheadResults(value: unknown): value is AheadResults {
  if (typeof value !== 'object' || value === null) return false;
  const { environment, results } = value as Partial<AheadResults>;
  if (typeof environment !== 'object' || environment === null || typeof results !== 'object' || results === null) return false;
  return Object.values(results).every((result) => typeof result === 'object' && result !== null && typeof result.name === 'string' && typeof result.status === 'string' && typeof result.output === 'string');
}
