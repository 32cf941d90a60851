import { describe, expect, it } from 'vitest';
import type { StopRecord } from '../../src/state/stop-record.js';
import { formatMs, formatTime, shortSession } from '../../src/report/format-units.js';
import { renderStats } from '../../src/stats/render-stats.js';
import { renderStopLine, renderStopLog } from '../../src/stats/render-stop-log.js';
import { median, nearestRank, summariseStops } from '../../src/stats/summarise-stops.js';

let minute = 0;
function stop(overrides: Partial<StopRecord>): StopRecord {
  minute++;
  return {
    time: `2025-05-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
    session: 'session-1',
    harness: 'claude',
    event: 'stop',
    outcome: 'allow',
    path: 'fast',
    reason: 'no change',
    changed: { count: 0, sample: [] },
    gates: [],
    durationMs: 40,
    reportChars: 0,
    blocks: 0,
    ...overrides,
  };
}

const failing = (durationMs: number) => ({ name: 'test', status: 'failed' as const, durationMs });
const changed = { count: 2, sample: ['src/sum.ts', 'src/sum.test.ts'] };

// One session blocked twice and let through; another passes with a flake, then stops on the fast path.
const sequence: StopRecord[] = [
  stop({ durationMs: 40 }),
  stop({ outcome: 'block', path: 'checked', reason: 'failed', changed, gates: [failing(7600), { name: 'lint', status: 'passed', durationMs: 300 }], durationMs: 8000, reportChars: 1500, blocks: 1 }),
  stop({ outcome: 'block', path: 'checked', reason: 'failed', changed, gates: [failing(8800), { name: 'lint', status: 'cached', durationMs: 0 }], durationMs: 9000, reportChars: 1400, repeat: true, blocks: 2 }),
  stop({ outcome: 'escape', path: 'checked', reason: 'max blocks', changed, gates: [failing(9300)], durationMs: 9500 }),
  stop({
    session: 'b7c0e6a2-9a51-4c47-a0f3-5a3a3cf0e1d4',
    path: 'checked',
    reason: 'all passed',
    changed: { count: 1, sample: ['src/sum.ts'] },
    gates: [
      { name: 'test', status: 'passed', durationMs: 4800, flaky: ['src/sum.test.ts > sum > adds'] },
      { name: 'lint', status: 'passed', durationMs: 200, preExisting: 2 },
      { name: 'docs', status: 'not-run', durationMs: 0, reason: 'no changed file matches its "on" globs' },
    ],
    durationMs: 5000,
  }),
  stop({ session: 'b7c0e6a2-9a51-4c47-a0f3-5a3a3cf0e1d4', reason: 'already passed', durationMs: 60 }),
  stop({ session: 'b7c0e6a2-9a51-4c47-a0f3-5a3a3cf0e1d4', event: 'subagent-stop', durationMs: 20 }),
  stop({ session: 'b7c0e6a2-9a51-4c47-a0f3-5a3a3cf0e1d4', outcome: 'error', reason: 'config invalid', durationMs: 30 }),
];

describe('summariseStops', () => {
  it('adds up a scripted sequence of stops', () => {
    expect(summariseStops(sequence)).toEqual({
      stops: 8,
      sessions: 2,
      from: '2025-05-01T10:01:00.000Z',
      to: '2025-05-01T10:08:00.000Z',
      fastPath: { stops: 4, share: 0.5 },
      durations: {
        all: { medianMs: 2530, p95Ms: 9500 },
        fast: { medianMs: 35, p95Ms: 60 },
        checked: { medianMs: 8500, p95Ms: 9500 },
      },
      outcomes: { allow: 4, block: 2, escape: 1, error: 1 },
      reasons: [
        { reason: 'failed', stops: 2 },
        { reason: 'no change', stops: 2 },
        { reason: 'all passed', stops: 1 },
        { reason: 'already passed', stops: 1 },
        { reason: 'config invalid', stops: 1 },
        { reason: 'max blocks', stops: 1 },
      ],
      failingGates: [{ name: 'test', failures: 3, runs: 4 }],
      flakyTests: [{ gate: 'test', test: 'src/sum.test.ts > sum > adds', times: 1 }],
      preExisting: [{ gate: 'lint', stops: 1, latest: 2 }],
      feedback: [{ session: 'session-1', chars: 2900, blocks: 2, repeats: 1 }],
    });
  });

  it('is the same whatever the order of ties, and empty for no stops', () => {
    const a = stop({ path: 'checked', gates: [failing(1), { name: 'lint', status: 'failed', durationMs: 1 }] });
    const b = stop({ path: 'checked', gates: [{ name: 'lint', status: 'failed', durationMs: 1 }, failing(1)] });
    expect(summariseStops([a, b]).failingGates).toEqual([
      { name: 'lint', failures: 2, runs: 2 },
      { name: 'test', failures: 2, runs: 2 },
    ]);
    expect(summariseStops([])).toMatchObject({ stops: 0, sessions: 0, from: null, fastPath: { stops: 0, share: 0 }, durations: { all: null, fast: null, checked: null } });
  });

  it('takes the median as the middle value or the mean of the two, and p95 by nearest rank', () => {
    expect(median([5])).toBe(5);
    expect(median([1, 2, 3])).toBe(2);
    expect(median([1, 2, 3, 4])).toBe(3);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(nearestRank(hundred, 0.95)).toBe(95);
    expect(nearestRank([10, 20], 0.95)).toBe(20);
    expect(nearestRank([7], 0.95)).toBe(7);
  });
});

describe('rendering', () => {
  it('formats durations, times and session names', () => {
    expect([formatMs(85), formatMs(999.4), formatMs(999.6), formatMs(12_430), formatMs(125_000)]).toEqual(['85ms', '999ms', '1.0s', '12.4s', '2m05s']);
    expect(formatTime('2025-05-01T10:00:00.123Z')).toBe('2025-05-01T10:00:00Z');
    expect(formatTime('yesterday')).toBe('yesterday');
    expect([shortSession('session-1'), shortSession('b7c0e6a2-9a51-4c47')]).toEqual(['session-1', 'b7c0e6a2']);
  });

  it('writes one line per stop: who, outcome, path, duration, why, changed files, gates, report, blocks', () => {
    expect(sequence.map(renderStopLine)).toEqual([
      '2025-05-01T10:01:00Z  session-1  claude  allow  fast      40ms  no change; nothing changed',
      '2025-05-01T10:02:00Z  session-1  claude  block  checked   8.0s  failed; 2 changed: src/sum.ts, src/sum.test.ts; gates: test failed 7.6s, lint passed 300ms; report 1500 chars; 1 block in a row',
      '2025-05-01T10:03:00Z  session-1  claude  block  checked   9.0s  failed; 2 changed: src/sum.ts, src/sum.test.ts; gates: test failed 8.8s, lint cached; report 1400 chars; 2 blocks in a row',
      '2025-05-01T10:04:00Z  session-1  claude  escape checked   9.5s  max blocks; 2 changed: src/sum.ts, src/sum.test.ts; gates: test failed 9.3s',
      '2025-05-01T10:05:00Z  b7c0e6a2  claude  allow  checked   5.0s  all passed; 1 changed: src/sum.ts; gates: test passed 4.8s (flaky: src/sum.test.ts > sum > adds), lint passed 200ms (2 pre-existing), docs not-run (no changed file matches its "on" globs)',
      '2025-05-01T10:06:00Z  b7c0e6a2  claude  allow  fast      60ms  already passed; nothing changed',
      '2025-05-01T10:07:00Z  b7c0e6a2  claude subagent  allow  fast      20ms  no change; nothing changed',
      '2025-05-01T10:08:00Z  b7c0e6a2  claude  error  fast      30ms  config invalid; nothing changed',
    ]);
  });

  it('shows the first three changed paths and how many more', () => {
    const many = stop({ changed: { count: 57, sample: Array.from({ length: 20 }, (_, i) => `f${i}.ts`) } });
    expect(renderStopLine(many)).toContain('57 changed: f0.ts, f1.ts, f2.ts +54 more');
  });

  it('says when only the last stops are shown', () => {
    expect(renderStopLog(sequence.slice(-2), 8).split('\n')[0]).toBe('The last 2 of 8 stops recorded ("npx gate log -n 8" for all):');
    expect(renderStopLog(sequence, 8).split('\n')).toHaveLength(8);
  });

  it('renders the stats one fact a line', () => {
    expect(renderStats(summariseStops(sequence)).split('\n')).toEqual([
      'stops:         8 in 2 sessions, 2025-05-01T10:01:00Z to 2025-05-01T10:08:00Z',
      'fast path:     4 of 8 (50%) decided without running a gate',
      'duration:      median 2.5s, p95 9.5s',
      '  fast path:   median 35ms, p95 60ms',
      '  checked:     median 8.5s, p95 9.5s',
      'outcomes:      4 allowed, 2 blocked, 1 let through after too many blocks, 1 allowed unchecked after an error',
      'reasons:       failed 2, no change 2, all passed 1, already passed 1, config invalid 1, max blocks 1',
      'failing gates: test failed 3 of 4 runs',
      'flaky tests:   src/sum.test.ts > sum > adds (test) 1×',
      'pre-existing:  lint at 1 stop (latest 2)',
      'feedback:      session-1 2900 chars in 2 blocks (1 a reminder of a report it had)',
    ]);
  });

  it('lists at most five failing gates and says how many more', () => {
    const gates = Array.from({ length: 7 }, (_, i) => ({ name: `g${i}`, status: 'failed' as const, durationMs: 1 }));
    expect(renderStats(summariseStops([stop({ path: 'checked', gates })]))).toMatch(/failing gates: g0 failed 1 of 1 runs, .*g4 failed 1 of 1 runs, and 2 more\n/);
  });
});
