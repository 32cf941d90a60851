import { describe, expect, it } from 'vitest';
import { judgeSession } from '../../src/stats/judge-session.js';
import { renderVerdict } from '../../src/stats/render-verdict.js';
import { SESSION, stopAt as stop } from '../helpers/stop-records.js';

const testFailed = { name: 'test', status: 'failed' as const, durationMs: 3000 };
const lintPassed = { name: 'lint', status: 'passed' as const, durationMs: 700 };
const block = (minute: number, blocks: number) => stop(minute, { outcome: 'block', path: 'checked', reason: 'failed', gates: [testFailed, lintPassed], reportChars: 2000, blocks });

describe('judgeSession: the verdict on a session from its last own stop', () => {
  it.each([
    ['all passed', [lintPassed, { name: 'test', status: 'cached' as const, durationMs: 0 }], 'passed'],
    ['no change', [], 'no-change'],
    ['already passed', [], 'already-passed'],
    ['no gate triggered', [], 'no-gate-triggered'],
  ])('passes a stop that ended with "%s"', (reason, gates, kind) => {
    const verdict = judgeSession([block(0, 1), stop(1, { reason, gates })]);
    expect(verdict).toMatchObject({ verdict: 'pass', kind, session: SESSION, time: '2025-06-02T09:01:00.000Z', harness: 'claude', gates });
  });

  it('fails a stop let through after maxBlocks blocks, naming what is still red', () => {
    const records = [block(0, 1), block(1, 2), block(2, 3), stop(3, { outcome: 'escape', path: 'checked', reason: 'let through after 3 blocks', gates: [testFailed, lintPassed] })];
    const verdict = judgeSession(records);
    expect(verdict).toMatchObject({ verdict: 'fail', kind: 'escape', reason: 'let through after 3 blocks in a row, still red: test failed' });
    expect(renderVerdict(verdict, '.git/gate/reports/x.txt')).toBe(
      `fail: session ${SESSION}, last stop 2025-06-02T09:03:00Z (claude): let through after 3 blocks in a row, still red: test failed.\n` +
        'gates: test failed, lint passed; report: .git/gate/reports/x.txt',
    );
  });

  it('without a session asked for: the session whose stop ended last, not the one whose stop began last', () => {
    const long = stop(0, { session: 'headless', path: 'checked', reason: 'no verdict', gates: [{ name: 'test', status: 'timed-out', durationMs: 120_000 }], durationMs: 120_000 });
    const quick = stop(1, { session: 'other', path: 'checked', reason: 'all passed', gates: [lintPassed], durationMs: 500 });
    expect(judgeSession([long, quick])).toMatchObject({ session: 'headless', verdict: 'fail' });
    expect(judgeSession([long, { ...quick, time: '2025-06-02T09:03:00.000Z' }])).toMatchObject({ session: 'other', verdict: 'pass' });
  });

  it('fails a stop let through with only pre-existing failures', () => {
    const verdict = judgeSession([stop(0, { path: 'checked', reason: 'pre-existing failures only', gates: [{ ...testFailed, preExisting: 2 }] })]);
    expect(verdict).toMatchObject({ verdict: 'fail', kind: 'pre-existing', reason: 'let through red: test failed (2 pre-existing), each only with failures that were there before the turn' });
  });

  it('fails a stop whose gates gave no verdict: timed out, could not start', () => {
    const gates = [
      { name: 'test', status: 'timed-out' as const, durationMs: 60_000 },
      { name: 'lint', status: 'not-started' as const, durationMs: 3, reason: 'eslint not found' },
    ];
    const verdict = judgeSession([stop(0, { path: 'checked', reason: 'no verdict', gates })]);
    expect(verdict).toMatchObject({ verdict: 'fail', kind: 'no-verdict', reason: 'let through without a verdict from test timed out, lint could not start (eslint not found)' });
  });

  it('fails a stop let through because the config is invalid, or because gate crashed', () => {
    expect(judgeSession([stop(0, { reason: 'config invalid' })])).toMatchObject({ verdict: 'fail', kind: 'config-error' });
    expect(judgeSession([stop(0, { outcome: 'error', reason: 'git failed' })])).toMatchObject({ verdict: 'fail', kind: 'crash', reason: 'gate failed (git failed), and the stop was let through unchecked' });
  });

  it('fails a stop let through unchanged after a block, with the gates of that block', () => {
    const verdict = judgeSession([block(0, 1), stop(1, { reason: 'unchanged since block' })]);
    expect(verdict).toMatchObject({ verdict: 'fail', kind: 'unchanged-since-block', gates: [testFailed, lintPassed] });
    expect(verdict.reason).toMatch(/still red: test failed$/);
    // The block was cut from the log by a trim: still a fail, and it says why the gates are missing.
    expect(judgeSession([stop(1, { reason: 'unchanged since block' })])).toMatchObject({ verdict: 'fail', gates: [], reason: expect.stringMatching(/no longer in the log$/) });
  });

  it('fails a session whose last stop was a block (the harness ended the turn itself)', () => {
    expect(judgeSession([block(0, 1)])).toMatchObject({ verdict: 'fail', kind: 'blocked', reason: expect.stringMatching(/^was refused \(test failed\) and the agent never stopped again/) });
  });

  it('fails, never passes, a stop let through for a reason it does not know, or with a red gate whatever the reason', () => {
    expect(judgeSession([stop(0, { reason: 'background tasks still running' })])).toMatchObject({ verdict: 'fail', kind: 'unchecked' });
    expect(judgeSession([stop(0, { reason: 'asked the user', gates: [testFailed] })])).toMatchObject({ verdict: 'fail', kind: 'red', reason: 'let through red (asked the user): test failed' });
    expect(judgeSession([stop(0, { reason: 'all passed', gates: [testFailed] })])).toMatchObject({ verdict: 'fail', kind: 'red' });
  });

  it('fails on a tamper finding let through at any of the session\'s stops, not on one only shown at a block, and not with "tamper": "off"', () => {
    const finding = { path: 'src/sum.test.ts', line: 6, kind: 'weakened-test', detail: 'expectation changed to the value the code returned (6)' };
    const tamper = { count: 1, sample: [finding] };
    const tampered = stop(1, { path: 'checked', reason: 'all passed', gates: [lintPassed], tamper });
    const later = stop(2, { reason: 'no change' });
    expect(judgeSession([block(0, 1), tampered, later])).toMatchObject({ verdict: 'fail', kind: 'tampering', tamper: [finding], reason: expect.stringMatching(/^nothing had changed, so there was nothing to check, but the session let through 1 change that/) });
    expect(renderVerdict(judgeSession([tampered]), null)).toBe(
      `fail: session ${SESSION}, last stop 2025-06-02T09:01:00Z (claude): every gate passed, but the session let through 1 change that skips, deletes or weakens a test or check (the tamper check).\n` +
        'gates: lint passed\ntamper: src/sum.test.ts:6: expectation changed to the value the code returned (6)',
    );
    expect(judgeSession([block(0, 1), tampered, later], undefined, { tamperOff: true })).toMatchObject({ verdict: 'pass', tamper: [] });
    expect(judgeSession([{ ...block(0, 1), tamper }, stop(1, { reason: 'all passed', gates: [lintPassed] })])).toMatchObject({ verdict: 'pass', tamper: [] });
  });

  it('calls a killed stop unchecked, with how long it ran, what was running and the setting to raise', () => {
    const killed = stop(0, { outcome: 'error', path: 'checked', reason: 'killed by SIGTERM', durationMs: 8040, gates: [lintPassed], killed: { signal: 'SIGTERM', running: ['test'] } });
    expect(judgeSession([killed])).toMatchObject({
      verdict: 'fail',
      kind: 'unchecked',
      reason: 'the last stop was killed (SIGTERM) after 8 s while test ran, so it was let through unchecked: is the hook\'s timeout shorter than the gates? Raise the "timeout" (seconds) of gate\'s Stop hook in .claude/settings.json above the gates\' total ("npx gate doctor" checks it)',
    });
    expect(judgeSession([{ ...killed, harness: 'codex' }]).reason).toContain("Raise the timeout of gate's stop hook in codex's settings");
  });

  it('does not count subagent stops or second copies as the session\'s last stop', () => {
    const records = [
      block(0, 1),
      stop(1, { path: 'checked', reason: 'all passed', gates: [lintPassed] }),
      stop(2, { event: 'subagent-stop', outcome: 'block', reason: 'failed', gates: [testFailed] }),
      stop(3, { reason: 'second copy of an answered stop' }),
      stop(4, { reason: 'the same stop was checked by another run' }),
    ];
    expect(judgeSession(records)).toMatchObject({ verdict: 'pass', kind: 'passed', time: '2025-06-02T09:01:00.000Z' });
  });

  it('takes the default session from the latest stop, and the last stop by time (a trim can put a line out of place)', () => {
    const records = [stop(5, { session: 'other', reason: 'all passed' }), stop(7, { outcome: 'escape', reason: 'let through after 3 blocks', gates: [testFailed] }), stop(6, { reason: 'all passed' })];
    expect(judgeSession(records)).toMatchObject({ session: SESSION, verdict: 'fail', kind: 'escape' });
    expect(judgeSession(records, 'other')).toMatchObject({ session: 'other', verdict: 'pass' });
  });

  it('finds a session by its id, by the file name of an unsafe id, or by a unique start', () => {
    const records = [stop(0, { session: 'abc-1', reason: 'all passed' }), stop(1, { session: 'abd-2', reason: 'config invalid' })];
    expect(judgeSession(records, 'abc-1')).toMatchObject({ session: 'abc-1', verdict: 'pass' });
    expect(judgeSession(records, 'abd')).toMatchObject({ session: 'abd-2', verdict: 'fail' });
    expect(judgeSession(records, 'ab')).toMatchObject({ verdict: 'none', kind: 'no-such-session', reason: '2 sessions start with "ab" (abc-1, abd-2); give more of the id' });
  });

  it('has no verdict without a record: an empty log, an unknown session, a session with only subagent stops', () => {
    expect(judgeSession([])).toMatchObject({ verdict: 'none', kind: 'no-stops', session: null, gates: [] });
    expect(judgeSession([], 'x')).toMatchObject({ verdict: 'none', kind: 'no-stops', session: 'x' });
    const unknown = judgeSession([stop(0)], 'nope');
    expect(unknown).toMatchObject({ verdict: 'none', kind: 'no-such-session' });
    expect(unknown.reason).toContain('1 stop from 2025-06-02T09:00:00.000Z to 2025-06-02T09:00:00.000Z');
    expect(unknown.reason).toContain('the log keeps only its newest half');
    const subagentOnly = judgeSession([stop(0, { session: 'sub', event: 'subagent-stop' })], 'sub');
    expect(subagentOnly).toMatchObject({ verdict: 'none', kind: 'no-session-stop', reason: 'session sub has 1 recorded stop but none of its own (1 by subagents, 0 second copies of a stop another run answered)' });
    expect(judgeSession([stop(0, { event: 'subagent-stop' })])).toMatchObject({ verdict: 'none', kind: 'no-stops' });
    expect(renderVerdict(judgeSession([]), null)).toBe('none: no stops recorded yet.');
  });

  it('says a pass in one line when there were no gates, two with them; no report line on a pass', () => {
    expect(renderVerdict(judgeSession([stop(0)]), null)).toBe(`pass: session ${SESSION}, last stop 2025-06-02T09:00:00Z (claude): nothing had changed, so there was nothing to check.`);
    expect(renderVerdict(judgeSession([stop(0, { reason: 'all passed', gates: [lintPassed] })]), 'r.txt')).toBe(
      `pass: session ${SESSION}, last stop 2025-06-02T09:00:00Z (claude): every gate passed.\ngates: lint passed`,
    );
  });
});
