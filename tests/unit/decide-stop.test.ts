import { describe, expect, it } from 'vitest';
import { decideStop, decisionReason } from '../../src/stop/decide-stop.js';
import { describeOutcome } from '../../src/report/describe-outcome.js';
import { timeoutCounts } from '../../src/verdict/timeout-counts.js';
import type { GateResult, GateStatus } from '../../src/runner/gate-result.js';

function result(name: string, status: GateStatus): GateResult {
  return { name, status, command: name, exitCode: status === 'failed' ? 1 : 0, signal: undefined, output: '', filter: 'generic', durationMs: 1, logPath: '/x', timeoutSeconds: 5 };
}

describe('decideStop', () => {
  it('allows when nothing failed, and says whether every gate gave a verdict', () => {
    expect(decideStop([result('a', 'passed')], 0, 3, 'allow')).toMatchObject({ kind: 'allow', passed: true });
    expect(decideStop([result('a', 'passed'), result('b', 'timed-out')], 0, 3, 'allow')).toMatchObject({ kind: 'allow', passed: false });
    expect(decideStop([result('b', 'not-started')], 0, 3, 'block')).toMatchObject({ kind: 'allow', passed: false });
  });

  it('blocks on a failure until maxBlocks blocks in a row, then escapes', () => {
    const failed = [result('a', 'failed'), result('b', 'passed')];
    expect(decideStop(failed, 2, 3, 'allow').kind).toBe('block');
    expect(decideStop(failed, 3, 3, 'allow').kind).toBe('escape');
  });

  it('treats a timeout as no verdict with onTimeout "allow", and as a failure with "block"', () => {
    expect(decideStop([result('a', 'timed-out')], 0, 3, 'allow')).toMatchObject({ kind: 'allow', passed: false, noVerdict: [{ name: 'a' }] });
    expect(decideStop([result('a', 'timed-out')], 0, 3, 'block', new Set(), false, new Set(['a']))).toMatchObject({ kind: 'block', failed: [{ name: 'a' }] });
  });

  it('with onTimeout "once" (the default), counts a timeout as a failure unless the gate timed out at its previous run too, or never started', () => {
    const timedOut = [result('a', 'timed-out'), result('b', 'passed')];
    expect(decideStop(timedOut, 0, 3, 'once')).toMatchObject({ kind: 'block', failed: [{ name: 'a' }], noVerdict: [] });
    expect(decideStop(timedOut, 1, 3, 'once', new Set(), false, new Set(['a']))).toMatchObject({ kind: 'allow', passed: false, noVerdict: [{ name: 'a' }] });
    // Another gate's earlier timeout does not excuse this one.
    expect(decideStop(timedOut, 0, 3, 'once', new Set(), false, new Set(['b'])).kind).toBe('block');
    const unstarted = { ...result('a', 'timed-out'), outOfTime: true as const, detail: "the stop's time was spent" };
    expect(decideStop([unstarted], 0, 3, 'once')).toMatchObject({ kind: 'allow', noVerdict: [{ name: 'a' }] });
    expect(timeoutCounts(unstarted, 'block')).toBe(true);
    expect(timeoutCounts(result('a', 'failed'), 'once')).toBe(false);
  });
});

describe('decisionReason', () => {
  const failed = [result('a', 'failed')];
  it('names each kind of decision in the stop log\'s words', () => {
    expect(decisionReason(decideStop(failed, 3, 3, 'allow'), 1, false, 3)).toBe('let through after 3 blocks');
    expect(decisionReason(decideStop(failed, 0, 3, 'allow'), 1, false, 0)).toBe('failed');
    expect(decisionReason(decideStop([], 0, 3, 'allow', new Set(), true), 0, true, 0)).toBe('tampering');
    expect(decisionReason(decideStop(failed, 0, 3, 'allow', new Set(['a'])), 1, false, 0)).toBe('pre-existing failures only');
    expect(decisionReason(decideStop([], 0, 3, 'allow'), 0, true, 0)).toBe('no gate triggered; tampering reported');
    expect(decisionReason(decideStop([], 0, 3, 'allow'), 0, false, 0)).toBe('no gate triggered');
    expect(decisionReason(decideStop([result('a', 'passed')], 0, 3, 'allow'), 1, false, 0)).toBe('all passed');
    expect(decisionReason(decideStop([result('a', 'timed-out')], 0, 3, 'allow'), 1, false, 0)).toBe('no verdict');
  });
});

describe('describeOutcome', () => {
  it('keeps a "could not start" short when the detail holds a whole command line', () => {
    const detail = `Command failed with E2BIG: check ${'generated/file.txt '.repeat(50_000)}`;
    const outcome = describeOutcome({ ...result('a', 'not-started'), detail });
    expect(outcome.length).toBeLessThan(400);
    expect(outcome).toMatch(/^could not start: Command failed with E2BIG: check generated/);
  });
});
