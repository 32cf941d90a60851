import type { ChangeSet } from '../plan/select-gates.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { existedAtStart } from './new-tests.js';
import type { RememberedTest } from '../state/remembered-test.js';
import { type GateRun, rememberFailingTests } from './rewritten-expectations.js';
import { readStartVersions, type StartVersion } from './start-versions.js';

/**
 * At a block: the failing tests to compare at the next stop (rememberFailingTests), less those the
 * turn wrote itself. When git cannot tell what the start held, every test counts as old.
 */
export async function rememberOldFailingTests(root: string, baseline: Snapshot | undefined, change: ChangeSet, failed: readonly GateRun[]): Promise<RememberedTest[]> {
  const tests = rememberFailingTests(root, failed);
  if (tests.length === 0) return tests;
  let starts = new Map<string, StartVersion>();
  try {
    starts = await readStartVersions(root, baseline, change, [...new Set(tests.map((test) => test.file))]);
  } catch {
    // Unknown: the tests stay (the check errs toward reporting).
  }
  return tests.filter((test) => existedAtStart(test, starts.get(test.file)));
}
