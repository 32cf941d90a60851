import { buildSync } from 'esbuild';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { appendStopRecord, STOP_LOG_BOUND, stopLogPath, type StopLogBound } from '../../src/state/stop-log.js';
import type { StopRecord } from '../../src/state/stop-record.js';
import { lastGateRuns } from '../../src/verdict/last-gate-runs.js';
import { runAsync } from '../helpers/run-async.js';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

let base: string;
let count = 0;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'gate-stop-log-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const freshStateDir = () => join(base, `state-${++count}`, 'gate');

function record(overrides: Partial<StopRecord> = {}): StopRecord {
  return {
    time: '2025-05-01T10:00:00.000Z',
    session: 'session-1',
    harness: 'claude',
    event: 'stop',
    outcome: 'allow',
    path: 'fast',
    reason: 'no change',
    changed: { count: 0, sample: [] },
    gates: [],
    durationMs: 42,
    reportChars: 0,
    blocks: 0,
    ...overrides,
  };
}

describe('appendStopRecord and readStopRecords', () => {
  it('appends one line per stop to <stateDir>/stops.jsonl, owner-only, and reads them back newest last', () => {
    const stateDir = freshStateDir();
    expect(readStopRecords(stateDir)).toEqual([]);
    const first = record({ reason: 'no change' });
    const second = record({ outcome: 'block', path: 'checked', reason: 'failed', gates: [{ name: 'test', status: 'failed', durationMs: 1200, flaky: ['a > b'], preExisting: 2 }], blocks: 1 });
    expect(appendStopRecord(stateDir, first)).toEqual({ written: true, trimmed: false });
    expect(appendStopRecord(stateDir, second)).toEqual({ written: true, trimmed: false });
    expect(stopLogPath(stateDir)).toBe(join(stateDir, 'stops.jsonl'));
    expect(readFileSync(stopLogPath(stateDir), 'utf8').split('\n')).toHaveLength(3);
    expect(statSync(stopLogPath(stateDir)).mode & 0o777).toBe(0o600);
    expect(readStopRecords(stateDir)).toEqual([first, second]);
    expect(readStopRecords(stateDir, 1)).toEqual([second]);
  });

  it('keeps why a gate\'s failures could not be placed at the turn\'s start (issue 42: a baseline copy that cannot be made)', () => {
    const stateDir = freshStateDir();
    const doubt = 'the copy of the baseline could not be made (error: invalid object 100644 6da560b7 for docs/img/api-docs.gif)';
    const entry = record({ outcome: 'block', path: 'checked', reason: 'failed', gates: [{ name: 'test', status: 'failed', durationMs: 900, baselineMs: 40, baselineDoubt: doubt }], blocks: 1 });
    appendStopRecord(stateDir, entry);
    expect(readStopRecords(stateDir)[0]?.gates[0]?.baselineDoubt).toBe(doubt);
    // A doubt that is not text is no stop record.
    appendFileSync(stopLogPath(stateDir), `${JSON.stringify({ ...entry, gates: [{ name: 'test', status: 'failed', durationMs: 1, baselineDoubt: 3 }] })}\n`);
    expect(readStopRecords(stateDir)).toHaveLength(1);
  });

  it('keeps a stop\'s tamper findings (10 of them) and a kill, and reads them back', () => {
    const stateDir = freshStateDir();
    const sample = Array.from({ length: 12 }, (_, i) => ({ path: `src/t${i}.test.ts`, line: i + 1, kind: 'skip', detail: 'adds it.skip(' }));
    appendStopRecord(stateDir, record({ tamper: { count: 12, sample }, killed: { signal: 'SIGTERM', running: ['test'] } }));
    const [read] = readStopRecords(stateDir);
    expect(read?.tamper).toEqual({ count: 12, sample: sample.slice(0, 10) });
    expect(read?.killed).toEqual({ signal: 'SIGTERM', running: ['test'] });
    // A finding without its detail is not a stop record.
    appendFileSync(stopLogPath(stateDir), `${JSON.stringify({ ...record(), tamper: { count: 1, sample: [{ path: 'a', kind: 'skip' }] } })}\n`);
    expect(readStopRecords(stateDir)).toHaveLength(1);
  });

  it('bounds what one line can hold: 20 sample paths, clipped strings, whole milliseconds', () => {
    const stateDir = freshStateDir();
    const paths = Array.from({ length: 30 }, (_, i) => `src/file-${i}.ts`);
    appendStopRecord(stateDir, record({ changed: { count: 30, sample: paths }, reason: 'x'.repeat(1000), durationMs: 12.7, gates: [{ name: 'test', status: 'passed', durationMs: 3.4 }] }));
    const [read] = readStopRecords(stateDir);
    expect(read?.changed).toEqual({ count: 30, sample: paths.slice(0, 20) });
    expect(read?.reason).toHaveLength(200);
    expect(read?.durationMs).toBe(13);
    expect(read?.gates[0]?.durationMs).toBe(3);
  });

  it("keeps every gate of a big monorepo's stop (urql: 57), with the words of the first 50 and of every red one; past 1000 it counts the rest", () => {
    const stateDir = freshStateDir();
    const gates = Array.from({ length: 57 }, (_, i) => ({ name: `packages/p${i}:test`, status: i === 55 ? ('failed' as const) : ('passed' as const), durationMs: 10, reason: `reason ${i}`, tier: `tier ${i}` }));
    appendStopRecord(stateDir, record({ gates }));
    const [read] = readStopRecords(stateDir);
    expect(read?.gates).toHaveLength(57);
    expect(read?.gates[49]).toMatchObject({ reason: 'reason 49', tier: 'tier 49' });
    expect(read?.gates[50]).toEqual({ name: 'packages/p50:test', status: 'passed', durationMs: 10 });
    expect(read?.gates[55]).toMatchObject({ status: 'failed', reason: 'reason 55', tier: 'tier 55' });
    expect(read?.gatesLeftOut).toBeUndefined();
    appendStopRecord(stateDir, record({ gates: Array.from({ length: 1003 }, (_, i) => ({ name: `g${i}`, status: 'passed' as const, durationMs: 1 })) }));
    const big = readStopRecords(stateDir).at(-1);
    expect(big?.gates).toHaveLength(1000);
    expect(big?.gatesLeftOut).toBe(3);
  });

  it('skips corrupt, partial and foreign lines, and recovers a record glued to a torn one', () => {
    const stateDir = freshStateDir();
    const good = record({ session: 'good' });
    const glued = record({ session: 'after-a-torn-write' });
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(
      stopLogPath(stateDir),
      [
        'not json at all',
        JSON.stringify(good),
        '',
        JSON.stringify({ ...good, outcome: 'maybe' }),
        JSON.stringify({ ...good, gates: [{ name: 'x', status: 'failed' }] }),
        '[1,2,3]',
        `${JSON.stringify(good).slice(0, 40)}${JSON.stringify(glued)}`,
        JSON.stringify(good).slice(0, 60),
      ].join('\n'),
    );
    expect(readStopRecords(stateDir).map((r) => r.session)).toEqual(['good', 'after-a-torn-write']);
  });

  it('is not confused by a line left without its newline', () => {
    const stateDir = freshStateDir();
    appendStopRecord(stateDir, record({ session: 'before' }));
    appendFileSync(stopLogPath(stateDir), JSON.stringify(record()).slice(0, 50));
    appendStopRecord(stateDir, record({ session: 'after' }));
    expect(readStopRecords(stateDir).map((r) => r.session)).toEqual(['before', 'after']);
  });

  it('never throws when it cannot write: the failure is in the result', () => {
    const stateDir = freshStateDir();
    mkdirSync(join(stateDir, '..'), { recursive: true });
    writeFileSync(stateDir, 'a file where the state folder should be');
    const result = appendStopRecord(stateDir, record());
    expect(result).toMatchObject({ written: false, trimmed: false, problem: expect.stringMatching(/^cannot record the stop in .*stops\.jsonl: (EEXIST|ENOTDIR)/) });
    const other = freshStateDir();
    mkdirSync(stopLogPath(other), { recursive: true });
    expect(appendStopRecord(other, record())).toMatchObject({ written: false, problem: expect.stringMatching(/EISDIR/) });
    expect(readStopRecords(other)).toEqual([]);
  });
});

describe('the bound', () => {
  it('keeps the newest half once the file passes its byte limit', () => {
    const stateDir = freshStateDir();
    const bound = { maxBytes: 20_000, maxLines: 5000 };
    const results = Array.from({ length: 200 }, (_, i) => appendStopRecord(stateDir, record({ session: `s-${i}` }), bound));
    expect(results.filter((r) => r.trimmed).length).toBeGreaterThan(1);
    expect(results.every((r) => r.written)).toBe(true);
    expect(statSync(stopLogPath(stateDir)).size).toBeLessThanOrEqual(bound.maxBytes);
    const sessions = readStopRecords(stateDir).map((r) => Number(r.session.slice(2)));
    expect(sessions.at(-1)).toBe(199);
    expect(sessions).toEqual(Array.from({ length: sessions.length }, (_, i) => 200 - sessions.length + i));
    expect(statSync(stopLogPath(stateDir)).mode & 0o777).toBe(0o600);
  });

  it('keeps the newest half once the file passes its line limit', () => {
    const stateDir = freshStateDir();
    const bound = { maxBytes: 1024 * 1024, maxLines: 100 };
    for (let i = 0; i < 400; i++) appendStopRecord(stateDir, record({ session: `s-${i}` }), bound);
    const lines = readFileSync(stopLogPath(stateDir), 'utf8').trimEnd().split('\n');
    // Lines are counted each time the file grows by a sixteenth of its byte bound, so it may run a little over.
    expect(lines.length).toBeLessThanOrEqual(100 + 1024 * 1024 / 16 / 200);
    expect(lines.length).toBeGreaterThanOrEqual(50);
    expect(readStopRecords(stateDir).at(-1)?.session).toBe('s-399');
  });

  it('leaves trimming to the process holding the trim lock, and takes over a stale lock', () => {
    const stateDir = freshStateDir();
    const bound = { maxBytes: 4000, maxLines: 5000 };
    appendStopRecord(stateDir, record(), bound);
    const lock = `${stopLogPath(stateDir)}.trim`;
    writeFileSync(lock, '99999');
    for (let i = 0; i < 40; i++) expect(appendStopRecord(stateDir, record(), bound)).toEqual({ written: true, trimmed: false });
    expect(statSync(stopLogPath(stateDir)).size).toBeGreaterThan(bound.maxBytes);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(appendStopRecord(stateDir, record(), bound)).toEqual({ written: true, trimmed: true });
    expect(statSync(stopLogPath(stateDir)).size).toBeLessThanOrEqual(bound.maxBytes / 2 + 300);
  });
});

describe('two processes appending at once', () => {
  let bundle: string;
  beforeAll(() => {
    bundle = join(base, 'stop-log.mjs');
    buildSync({ entryPoints: [join(PROJECT_ROOT, 'src/state/stop-log.ts')], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning' });
  });

  // Both keep the same pace, three records a millisecond from the same instant, so they overlap throughout.
  const appender = (stateDir: string, writer: string, n: number, bound: StopLogBound, startAt: number) => `
    import { appendStopRecord } from ${JSON.stringify(bundle)};
    const problems = [];
    let trims = 0;
    for (let i = 0; i < ${n}; i++) {
      while (Date.now() < ${startAt} + Math.floor(i / 3));
      const result = appendStopRecord(${JSON.stringify(stateDir)}, { ...${JSON.stringify(record())}, session: '${writer}-' + i, reason: 'r'.repeat(i % 97) }, ${JSON.stringify(bound)});
      if (result.problem) problems.push(result.problem);
      if (result.trimmed) trims++;
    }
    process.stdout.write(JSON.stringify({ problems, trims }));`;

  /** How many times the two trimmed the file between them. */
  async function appendFromTwoProcesses(stateDir: string, n: number, bound: StopLogBound): Promise<number> {
    const startAt = Date.now() + 500;
    const runs = ['a', 'b'].map((writer) =>
      runAsync(process.execPath, ['--input-type=module', '-e', appender(stateDir, writer, n, bound, startAt)], { cwd: base, env: { PATH: process.env['PATH'] ?? '' } }),
    );
    let trims = 0;
    for (const run of await Promise.all(runs)) {
      expect(run.stderr.toString()).toBe('');
      const result = JSON.parse(run.stdout.toString()) as { problems: string[]; trims: number };
      expect(result.problems).toEqual([]);
      trims += result.trims;
    }
    return trims;
  }

  /** Every line whole; the writer of each, in file order. */
  function writers(stateDir: string): Array<[string, number]> {
    const lines = readFileSync(stopLogPath(stateDir), 'utf8').trimEnd().split('\n');
    const records = readStopRecords(stateDir);
    expect(records).toHaveLength(lines.length);
    return records.map((r) => {
      const [writer, i] = r.session.split('-');
      return [writer ?? '', Number(i)];
    });
  }

  it('interleaves whole lines and loses none', async () => {
    const stateDir = freshStateDir();
    expect(await appendFromTwoProcesses(stateDir, 1500, { maxBytes: 16 * 1024 * 1024, maxLines: 100_000 })).toBe(0);
    const order = writers(stateDir);
    for (const writer of ['a', 'b']) expect(order.filter(([w]) => w === writer).map(([, i]) => i)).toEqual(Array.from({ length: 1500 }, (_, i) => i));
    // They really overlapped: one after the other would switch writers once.
    const switches = order.filter(([w], i) => i > 0 && w !== order[i - 1]?.[0]).length;
    expect(switches).toBeGreaterThan(2);
  });

  it('stays within the real bound while both trim it, losing nothing recent', async () => {
    const stateDir = freshStateDir();
    expect(await appendFromTwoProcesses(stateDir, 3000, STOP_LOG_BOUND)).toBeGreaterThanOrEqual(2);
    expect(statSync(stopLogPath(stateDir)).size).toBeLessThanOrEqual(STOP_LOG_BOUND.maxBytes);
    const order = writers(stateDir);
    expect(order.length).toBeGreaterThan(1000);
    for (const writer of ['a', 'b']) {
      const kept = new Set(order.filter(([w]) => w === writer).map(([, i]) => i));
      expect(kept.size).toBe(order.filter(([w]) => w === writer).length);
      // Trims drop the oldest half by position; a line written during a trim may sit a little out of
      // order, so only the recent past is checked line by line.
      const recent = Array.from({ length: 200 }, (_, i) => 2800 + i);
      expect(recent.filter((i) => !kept.has(i))).toEqual([]);
    }
    expect(() => statSync(`${stopLogPath(stateDir)}.trim`)).toThrow();
  });
});

describe('lastGateRuns', () => {
  it("finds each gate's last run that ended, at any session's stop, skipping runs that were cached, skipped or not started", () => {
    const stateDir = freshStateDir();
    expect(lastGateRuns(stateDir, ['test'])).toEqual(new Map());
    appendStopRecord(stateDir, record({ session: 'old', gates: [{ name: 'test', status: 'timed-out', durationMs: 300_000 }, { name: 'lint', status: 'passed', durationMs: 900 }] }));
    appendStopRecord(stateDir, record({ session: 'other', gates: [{ name: 'test', status: 'passed', durationMs: 4100 }] }));
    appendStopRecord(stateDir, record({ gates: [{ name: 'test', status: 'cached', durationMs: 0 }, { name: 'lint', status: 'not-started', durationMs: 0 }] }));
    expect(lastGateRuns(stateDir, ['test', 'lint', 'types'])).toEqual(
      new Map([
        ['test', { status: 'passed', durationMs: 4100 }],
        ['lint', { status: 'passed', durationMs: 900 }],
      ]),
    );
    appendStopRecord(stateDir, record({ gates: [{ name: 'test', status: 'timed-out', durationMs: 300_000 }] }));
    expect(lastGateRuns(stateDir, ['test']).get('test')).toEqual({ status: 'timed-out', durationMs: 300_000 });
  });
});
