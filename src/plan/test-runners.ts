import type { ResolvedGate } from '../config/load-config.js';

/** The filters of test runners: a gate with its own command and one of these runs tests. */
const TEST_FILTERS = new Set(['vitest', 'jest', 'mocha', 'node-test', 'pytest', 'go-test', 'cargo-test']);

/**
 * A gate that runs a test suite: a preset of kind "test" (vitest, jest, pytest, go test, cargo test,
 * turbo/nx test …), or a command of its own read by a test runner's filter. Such a run starts its
 * own workers, one per core or so, and its tests may wait on timers: what load slows down. Reads
 * the resolved gate only: the stop's bundle has no preset loader (zod) in it.
 */
export function isTestRunner(gate: Pick<ResolvedGate, 'preset' | 'kind' | 'filter'>): boolean {
  if (gate.preset !== undefined) return gate.kind === 'test';
  return TEST_FILTERS.has(gate.filter);
}
