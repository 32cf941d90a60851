import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUM_BROKEN, SUM_CHECK_GATE, SUM_OK, SUM_STILL_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { hookPayload, promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const verdict = (...args: string[]) => runBin(['verdict', ...args], { cwd: repo.dir, env: repo.env });
const stopLog = () => join(repo.dir, '.git', 'gate', 'stops.jsonl');
const reportOf = (session: string) => join(repo.dir, '.git', 'gate', 'reports', `${session}.txt`);
const subagentStop = (session: string) =>
  runBin(['run'], { cwd: repo.dir, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, input: hookPayload('SubagentStop', session, repo.dir) });

/** A test gate with no runner's start-up: where the verdict is the point, not which test failed. */
const quickProject = () => vitestProject({ gates: [SUM_CHECK_GATE] });
/** Red in a new way each time, so every stop has something to check. */
const attempts = [SUM_BROKEN, SUM_STILL_BROKEN, SUM_BROKEN.replace('a - b', 'a - b - 1'), SUM_BROKEN.replace('a - b', '0')];

describe('gate verdict after real stops of the built hook', () => {
  it('exits 0 after a green stop, and says which gates passed', () => {
    repo = makeRepo(quickProject(), { nodeModules: true });
    promptStart(repo, 'green');
    repo.write('src/sum.ts', SUM_OK.replace('return a + b;', 'return b + a;'));
    expect(stop(repo, 'green').code).toBe(0);
    const result = verdict();
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^pass: session green, last stop \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(claude\): every gate passed\.\ngates: test passed\n$/);
  });

  it('exits 0 when the last stop had nothing to check', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    promptStart(repo, 'idle');
    expect(stop(repo, 'idle').code).toBe(0);
    expect(verdict()).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pass: session idle, .*nothing had changed, so there was nothing to check\.\n$/) });
  });

  it('exits 0 once a blocked agent fixes the code', () => {
    repo = makeRepo(quickProject(), { nodeModules: true });
    promptStart(repo, 'fixed');
    repo.write('src/sum.ts', SUM_BROKEN);
    expect(stop(repo, 'fixed').code).toBe(2);
    expect(verdict().code).toBe(1);
    repo.write('src/sum.ts', SUM_OK);
    expect(stop(repo, 'fixed').code).toBe(0);
    expect(verdict()).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pass: session fixed, /) });
  });

  // The maxBlocks count itself (blocks exactly maxBlocks times, then lets the turn end and tells the
  // human; counts again after) is checked here too: stop.test.ts ran the same four stops for it.
  it('blocks exactly maxBlocks times, then lets the turn end and tells the human; exits 1 after a block then an escape at maxBlocks, names the gate, and --json points at the report on disk', () => {
    repo = makeRepo(vitestProject({ maxBlocks: 3, gates: [{ name: 'test', preset: 'vitest' }] }), { nodeModules: true });
    promptStart(repo, 'escaped');
    const results = attempts.map((attempt) => {
      repo.write('src/sum.ts', attempt);
      return stop(repo, 'escaped');
    });
    expect(results.map((result) => result.code)).toEqual([2, 2, 2, 0]);
    expect(JSON.parse(results[3]?.stdout ?? '').systemMessage).toMatch(/after 3 blocked stops in a row; still failing: test/);

    const human = verdict();
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^fail: session escaped, last stop \S+ \(claude\): let through after 3 blocks in a row, still red: test failed\.\ngates: test failed; report: \.git\/gate\/reports\/escaped\.txt\n$/);

    // The copy of the start ran at the first stop only: the later ones, on the same start, failed the
    // same test, and the start's result for it was remembered (evidence by state, issue 37), so the
    // escape ran no copy and has no baselineMs.
    const logged = readFileSync(stopLog(), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(logged.map((entry) => entry.gates[0].baselineMs === undefined)).toEqual([false, true, true, true]);
    const json = verdict('--json');
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toEqual({
      session: 'escaped',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      harness: 'claude',
      verdict: 'fail',
      kind: 'escape',
      reason: 'let through after 3 blocks in a row, still red: test failed',
      gates: [{ name: 'test', status: 'failed', durationMs: expect.any(Number), tier: expect.any(String) }],
      tamper: [],
      report: reportOf('escaped'),
      warnings: [],
    });
    // The report file: what the human was told at the escape, above what that last stop found.
    const report = readFileSync(parsed.report, 'utf8');
    expect(report).toMatch(/^gate: let the turn end after 3 blocked stops in a row; still failing: test\./);
    expect(report).toContain('What this last stop found (the agent was not shown it):\n\ngate: 1 of 1 checks failed (test) at this stop, which was let through.');
    expect(report).toContain('sum > adds two numbers');
    expect(statSync(parsed.report).mode & 0o777).toBe(0o600);
    expect(statSync(join(repo.dir, '.git', 'gate', 'reports')).mode & 0o777).toBe(0o700);

    // The count starts again after an allowed stop.
    repo.write('src/sum.ts', SUM_STILL_BROKEN.replace('a * b', 'a * b * 2'));
    expect(stop(repo, 'escaped').stderr).toMatch(/block 1 of 3/);
  });

  it('writes the report the agent read at each block, byte for byte', () => {
    repo = makeRepo(quickProject(), { nodeModules: true });
    promptStart(repo, 'blocked');
    repo.write('src/sum.ts', SUM_BROKEN);
    const blocked = stop(repo, 'blocked');
    expect(blocked.code).toBe(2);
    expect(readFileSync(reportOf('blocked'), 'utf8')).toBe(blocked.stderr);
    // The run ended on the block (the harness gave up, or is still going): not green.
    const result = verdict('--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ verdict: 'fail', kind: 'blocked', report: reportOf('blocked') });
  });

  it('exits 1 when the stop was let through with pre-existing failures only', () => {
    repo = makeRepo(
      {
        ...vitestProject({ gates: [{ name: 'test', preset: 'vitest', related: false }] }),
        'src/other.ts': 'export const answer = (): number => 41;\n',
        'src/other.test.ts': "import { expect, it } from 'vitest';\nimport { answer } from './other.js';\n\nit('knows the answer', () => {\n  expect(answer()).toBe(42);\n});\n",
      },
      { nodeModules: true },
    );
    promptStart(repo, 'already-red');
    repo.write('src/extra.ts', 'export const extra = 1;\n');
    expect(stop(repo, 'already-red').code).toBe(0);
    const result = verdict();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^fail: session already-red, .*: let through red: test failed \(1 pre-existing\), each only with failures that were there before the turn\.\ngates: test failed \(1 pre-existing\); report: \.git\/gate\/reports\/already-red\.txt\n$/);
    // No report was given to the agent; the one kept for the human is this stop's run.
    const json = JSON.parse(verdict('--json').stdout);
    expect(json).toMatchObject({ kind: 'pre-existing', report: reportOf('already-red'), gates: [{ name: 'test', status: 'failed', preExisting: 1 }] });
    const report = readFileSync(json.report, 'utf8');
    expect(report).toMatch(/^gate: test still failing, but only with failures from before this turn; the stop was allowed\.\n\nWhat this last stop found/);
    expect(report).toContain('knows the answer');
  });

  it('exits 1 when the config was invalid and the stop went through unchecked', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    promptStart(repo, 'broken-config');
    repo.write('gate.config.json', '{ "gates": [{ "name": "test", "timeout": "60s" }] }\n');
    repo.write('src/sum.ts', SUM_BROKEN);
    expect(stop(repo, 'broken-config').code).toBe(0);
    expect(verdict()).toMatchObject({ code: 1, stdout: expect.stringMatching(/^fail: session broken-config, .*the config is invalid, so the stop was let through unchecked/) });
  });

  it('exits 2 without a record: no stop log, an unknown session, a session with only subagent stops', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    expect(verdict()).toMatchObject({
      code: 2,
      stderr: '',
      stdout: 'none: no stop log (.git/gate/stops.jsonl): the hook has not decided a stop in this repository; is it installed, and does the harness run it (trust, approval)?\n',
    });
    expect(JSON.parse(verdict('--json', '--session', 'x').stdout)).toEqual({
      session: 'x',
      time: null,
      harness: null,
      verdict: 'none',
      kind: 'no-log',
      reason: expect.stringMatching(/^no stop log/),
      gates: [],
      tamper: [],
      report: null,
      warnings: [],
    });

    promptStart(repo, 'one');
    stop(repo, 'one');
    expect(verdict('--session', 'two')).toMatchObject({ code: 2, stdout: expect.stringMatching(/^none: no stop of session two in the log \(1 stop from .*an older session's stops may have been cut\.\n$/) });

    expect(subagentStop('helper').code).toBe(0);
    expect(verdict('--session', 'helper')).toMatchObject({
      code: 2,
      stdout: 'none: session helper has 1 recorded stop but none of its own (1 by subagents, 0 second copies of a stop another run answered).\n',
    });
    // A subagent's stop is not the session's last stop: the default is still session one.
    expect(verdict()).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pass: session one, /) });
  });

  it('--session picks the session asked for, by its id or its first characters', () => {
    repo = makeRepo(quickProject(), { nodeModules: true });
    promptStart(repo, 'red-session');
    repo.write('src/sum.ts', SUM_BROKEN);
    expect(stop(repo, 'red-session').code).toBe(2);
    repo.write('src/sum.ts', SUM_OK);
    promptStart(repo, 'green-session');
    expect(stop(repo, 'green-session').code).toBe(0);

    expect(verdict().stdout).toMatch(/^pass: session green-session, /);
    expect(verdict('--session', 'red-session')).toMatchObject({ code: 1, stdout: expect.stringMatching(/^fail: session red-session, .*was refused \(test failed\)/) });
    expect(verdict('--session', 'red')).toMatchObject({ code: 1, stdout: expect.stringMatching(/^fail: session red-session, /) });
    expect(verdict('--session', 'green-session').code).toBe(0);
  });

  it('skips a corrupt line with a warning, and says when it is the newest', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    promptStart(repo, 'torn');
    stop(repo, 'torn');
    appendFileSync(stopLog(), '{"time":"2025-06-02T09:00:00Z","session":"torn","outc\n');
    const result = verdict();
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('gate: warning: 1 line of .git/gate/stops.jsonl could not be read (torn, or not a stop record) and was skipped; the newest line is one of them, so the latest stop may be missing\n');
    expect(JSON.parse(verdict('--json').stdout).warnings).toHaveLength(1);
  });

  it('without --session: the agent\'s own session when its harness names it, else the session whose stop ended last', () => {
    repo = makeRepo({ 'gate.config.json': '{ "gates": [] }' });
    mkdirSync(join(repo.dir, '.git', 'gate'), { recursive: true });
    const record = (session: string, time: string, durationMs: number, reason: string) =>
      `${JSON.stringify({ time, session, harness: 'claude', event: 'stop', outcome: 'allow', path: 'checked', reason, changed: { count: 1, sample: ['a.ts'] }, gates: [{ name: 'test', status: reason === 'no verdict' ? 'timed-out' : 'passed', durationMs }], durationMs, reportChars: 0, blocks: 0 })}\n`;
    // The headless run's stop began first and ran 2 minutes; another session's quick stop began and ended inside it.
    appendFileSync(stopLog(), record('headless', '2025-06-02T09:00:00.000Z', 120_000, 'no verdict') + record('other', '2025-06-02T09:01:00.000Z', 500, 'all passed'));
    expect(verdict()).toMatchObject({ code: 1, stdout: expect.stringMatching(/^fail: session headless, /), stderr: '' });
    const asAgent = (session: string) => runBin(['verdict'], { cwd: repo.dir, env: { ...repo.env, CLAUDE_CODE_SESSION_ID: session } });
    expect(asAgent('other')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pass: session other, /), stderr: '' });
    expect(asAgent('outer-session')).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/^fail: session headless, /),
      stderr: 'gate: warning: CLAUDE_CODE_SESSION_ID names session outer-session, which has no stop in this log; judging the session whose stop ended last (pass --session to choose)\n',
    });
  });

  it('exits 2 with the reason when the log cannot be read', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    // A folder where the log should be: unreadable even for root.
    mkdirSync(stopLog(), { recursive: true });
    expect(verdict()).toMatchObject({ code: 2, stdout: expect.stringMatching(/^none: cannot read .*stops\.jsonl: EISDIR/) });
  });

  it('rejects an unknown option as bad usage', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    expect(verdict('--sesion', 'x')).toMatchObject({ code: 2, stderr: expect.stringMatching(/usage: gate verdict \[--session ID\] \[--json\]/) });
    expect(existsSync(stopLog())).toBe(false);
  });
});
