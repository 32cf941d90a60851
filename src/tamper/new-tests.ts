import type { RememberedTest } from '../state/remembered-test.js';
import type { StartVersion } from './start-versions.js';
import { syntaxFor } from './test-syntax.js';

/**
 * Whether a failing test was there when the turn started: its file then held a test of its name.
 * A test the turn wrote is the agent's own to get right — correcting its expectation is not
 * tampering. When the start is not known, the test counts as old.
 */
export function existedAtStart(test: RememberedTest, start: StartVersion): boolean {
  if (start === undefined) return true;
  if (start === null) return false;
  const syntax = syntaxFor(test.file);
  return syntax.findSpan(start.split('\n'), syntax.titleOf(test.id), test.line) !== undefined;
}
