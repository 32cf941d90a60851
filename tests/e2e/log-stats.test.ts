import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outsideGitStateDir } from '../../src/state/outside-git-state-dir.js';
import { appendStopRecord, stopLogPath } from '../../src/state/stop-log.js';
import type { StopRecord } from '../../src/state/stop-record.js';
import { runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { SESSION, stopAt as stop } from '../helpers/stop-records.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const CONFIG = { 'gate.config.json': '{ "gates": [{ "name": "test", "run": ["node", "-e", "0"] }] }\n', 'src/sum.ts': 'export {};\n' };

const changed = { count: 4, sample: ['src/sum.ts', 'src/sum.test.ts', 'src/util.ts', 'README.md'] };

// A turn that fails twice, is let through, then a second session that passes with a flake and idles.
const script: StopRecord[] = [
  stop(0, { durationMs: 45 }),
  stop(1, { outcome: 'block', path: 'checked', reason: 'failed', changed, gates: [{ name: 'test', status: 'failed', durationMs: 3100 }, { name: 'lint', status: 'passed', durationMs: 700 }], durationMs: 3300, reportChars: 2150, blocks: 1 }),
  stop(2, { outcome: 'block', path: 'checked', reason: 'failed', changed, gates: [{ name: 'test', status: 'failed', durationMs: 2900 }, { name: 'lint', status: 'cached', durationMs: 0 }], durationMs: 3000, reportChars: 2080, blocks: 2 }),
  stop(3, { outcome: 'escape', path: 'checked', reason: 'max blocks', changed, gates: [{ name: 'test', status: 'failed', durationMs: 3000 }], durationMs: 3200, blocks: 0 }),
  stop(4, { session: 'session-2', path: 'checked', reason: 'all passed', changed: { count: 1, sample: ['src/sum.ts'] }, gates: [{ name: 'test', status: 'passed', durationMs: 4100, flaky: ['src/sum.test.ts > sum > adds'] }], durationMs: 4300 }),
  stop(5, { session: 'session-2', reason: 'already passed', durationMs: 55 }),
  stop(6, { session: 'session-2', harness: 'codex', reason: 'unchanged since block', durationMs: 60 }),
];

const gate = (args: string[], cwd = repo.dir) => runBin(args, { cwd, env: repo.env });

function appendScript(stateDir: string): void {
  for (const record of script) expect(appendStopRecord(stateDir, record)).toEqual({ written: true, trimmed: false });
}

describe('gate log and gate stats over a scripted sequence of stops', () => {
  it('lists the stops, newest last, one line each', () => {
    repo = makeRepo(CONFIG);
    appendScript(join(repo.dir, '.git', 'gate'));
    const result = gate(['log']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[0]).toBe('2025-06-02T09:00:00Z  6f1d2c3b  claude  allow  fast      45ms  no change; nothing changed');
    expect(lines[1]).toBe(
      '2025-06-02T09:01:00Z  6f1d2c3b  claude  block  checked   3.3s  failed; 4 changed: src/sum.ts, src/sum.test.ts, src/util.ts +1 more; gates: test failed 3.1s, lint passed 700ms; report 2150 chars; 1 block in a row',
    );
    expect(lines[3]).toMatch(/^2025-06-02T09:03:00Z {2}6f1d2c3b {2}claude {2}escape checked {3}3\.2s {2}max blocks;/);
    expect(lines[4]).toContain('session-2  claude  allow  checked   4.3s  all passed; 1 changed: src/sum.ts; gates: test passed 4.1s (flaky: src/sum.test.ts > sum > adds)');
    expect(lines[6]).toBe('2025-06-02T09:06:00Z  session-2  codex  allow  fast      60ms  unchanged since block; nothing changed');
  });

  it('shows the last N with -n, and says how many there are in all', () => {
    repo = makeRepo(CONFIG);
    appendScript(join(repo.dir, '.git', 'gate'));
    const lines = gate(['log', '-n', '2']).stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      'The last 2 of 7 stops recorded ("gate log -n 7" for all):',
      expect.stringMatching(/^2025-06-02T09:05:00Z .* already passed; nothing changed$/),
      expect.stringMatching(/^2025-06-02T09:06:00Z .* unchanged since block; nothing changed$/),
    ]);
  });

  it('gives the records themselves with --json', () => {
    repo = makeRepo(CONFIG);
    appendScript(join(repo.dir, '.git', 'gate'));
    expect(JSON.parse(gate(['log', '--json']).stdout)).toEqual(script);
    expect(JSON.parse(gate(['log', '--json', '-n', '3']).stdout)).toEqual(script.slice(-3));
  });

  it('adds them up with gate stats --json', () => {
    repo = makeRepo(CONFIG);
    appendScript(join(repo.dir, '.git', 'gate'));
    const result = gate(['stats', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      stops: 7,
      sessions: 2,
      from: '2025-06-02T09:00:00.000Z',
      to: '2025-06-02T09:06:00.000Z',
      fastPath: { stops: 3, share: 3 / 7 },
      durations: {
        all: { medianMs: 3000, p95Ms: 4300 },
        fast: { medianMs: 55, p95Ms: 60 },
        checked: { medianMs: 3250, p95Ms: 4300 },
      },
      outcomes: { allow: 4, block: 2, escape: 1, error: 0 },
      reasons: [
        { reason: 'failed', stops: 2 },
        { reason: 'all passed', stops: 1 },
        { reason: 'already passed', stops: 1 },
        { reason: 'max blocks', stops: 1 },
        { reason: 'no change', stops: 1 },
        { reason: 'unchanged since block', stops: 1 },
      ],
      failingGates: [{ name: 'test', failures: 3, runs: 4 }],
      flakyTests: [{ gate: 'test', test: 'src/sum.test.ts > sum > adds', times: 1 }],
      preExisting: [],
      feedback: [{ session: SESSION, chars: 2150 + 2080, blocks: 2, repeats: 0 }],
    });
  });

  it('says the same in words with gate stats', () => {
    repo = makeRepo(CONFIG);
    appendScript(join(repo.dir, '.git', 'gate'));
    const text = gate(['stats']).stdout;
    expect(text).toMatch(/^stops: +7 in 2 sessions, 2025-06-02T09:00:00Z to 2025-06-02T09:06:00Z$/m);
    expect(text).toMatch(/^fast path: +3 of 7 \(43%\) decided without running a gate$/m);
    expect(text).toMatch(/^duration: +median 3\.0s, p95 4\.3s$/m);
    expect(text).toMatch(/^ {2}fast path: +median 55ms, p95 60ms$/m);
    expect(text).toMatch(/^outcomes: +4 allowed, 2 blocked, 1 let through after too many blocks, 0 allowed unchecked after an error$/m);
    expect(text).toMatch(/^failing gates: test failed 3 of 4 runs$/m);
    expect(text).toMatch(/^flaky tests: +src\/sum\.test\.ts > sum > adds \(test\) 1×$/m);
    expect(text).toMatch(/^pre-existing: +none$/m);
    expect(text).toMatch(new RegExp(`^feedback: +${SESSION.slice(0, 8)}\\S* 4230 chars in 2 blocks$`, 'm'));
  });
});

describe('finding the log', () => {
  it('says plainly when nothing was recorded yet', () => {
    repo = makeRepo(CONFIG);
    for (const command of ['log', 'stats']) {
      expect(gate([command])).toMatchObject({ code: 0, stdout: 'No stops recorded yet (.git/gate/stops.jsonl). The hook records each stop it decides.\n' });
    }
    expect(JSON.parse(gate(['log', '--json']).stdout)).toEqual([]);
    expect(JSON.parse(gate(['stats', '--json']).stdout)).toMatchObject({ stops: 0, durations: { all: null } });
  });

  it('works from a subdirectory, with no config and with an invalid one', () => {
    repo = makeRepo({ 'src/sum.ts': 'export {};\n' });
    appendScript(join(repo.dir, '.git', 'gate'));
    expect(gate(['log', '-n', '1']).stdout).toMatch(/unchanged since block/);
    mkdirSync(join(repo.dir, 'src', 'deep'));
    expect(gate(['stats', '--json'], join(repo.dir, 'src', 'deep')).stdout).toMatch(/"stops": 7/);
    repo.write('gate.config.json', '{ "gates": [{ "name": "test", "preset": "vitets" }] }');
    expect(gate(['stats'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^stops: +7 in 2 sessions/) });
  });

  it('skips a corrupt line instead of failing', () => {
    repo = makeRepo(CONFIG);
    const stateDir = join(repo.dir, '.git', 'gate');
    appendScript(stateDir);
    appendFileSync(stopLogPath(stateDir), '{"time": "torn\ngarbage\n');
    appendStopRecord(stateDir, stop(7, { reason: 'no change' }));
    expect(gate(['log', '--json']).stdout).toMatch(/"time": "2025-06-02T09:07:00.000Z"/);
    expect(JSON.parse(gate(['stats', '--json']).stdout).stops).toBe(8);
  });

  it('reads the log outside git from where the hook keeps it there', () => {
    repo = makeRepo(CONFIG, { git: false });
    const stateDir = outsideGitStateDir(repo.dir);
    try {
      appendScript(stateDir);
      expect(JSON.parse(gate(['stats', '--json']).stdout).stops).toBe(7);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('refuses bad usage with exit 2, and says why when there is nowhere to look', () => {
    repo = makeRepo(CONFIG);
    expect(gate(['log', '-n', 'ten'])).toMatchObject({ code: 2, stderr: 'gate: -n takes a positive whole number, got "ten"; usage: gate log [-n N] [--json]\n' });
    expect(gate(['stats', '--verbose'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--verbose.*usage: gate stats \[--json\]/) });
    const bare = makeRepo({}, { git: false });
    try {
      expect(gate(['log'], bare.dir)).toMatchObject({ code: 3, stderr: expect.stringMatching(/not in a git repository and no gate\.config\.json here/) });
    } finally {
      bare.cleanup();
    }
    expect(gate(['--help']).stdout).toMatch(/gate log \[-n N\] \[--json\][\s\S]*gate stats \[--json\]/);
  });
});
