import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SUM_BROKEN, SUM_CHECK_GATE, SUM_OK, SUM_STILL_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { spawn } from 'node:child_process';
import { onLinux } from '../helpers/processes.js';
import { type BinResult, GATE_BIN, hookPayload, promptStart, runBin, stop } from '../helpers/run-bin.js';
import { copyRepo, makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { outsideGitStateDir } from '../../src/state/outside-git-state-dir.js';
import { readStopLog } from '../../src/state/read-stop-log.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const ANSI = /\x1b/;
const logOf = (r: TempRepo) => join(r.dir, '.git', 'gate', 'logs', 'test.log');
const systemMessage = (stdout: string): string => JSON.parse(stdout).systemMessage;

describe('gate run as the Stop hook, on a TypeScript project with vitest', () => {
  // Green at the prompt, src/sum.ts broken, the stop refused (a real vitest run, and one of the
  // start): made once, at the first test that needs it, and copied for each.
  let blocked: { repo: TempRepo; result: BinResult } | undefined;
  afterAll(() => blocked?.repo.cleanup());
  function blockedOnce(): BinResult {
    if (!blocked) {
      const source = makeRepo(vitestProject(), { nodeModules: true });
      promptStart(source);
      source.write('src/sum.ts', SUM_BROKEN);
      blocked = { repo: source, result: stop(source) };
    }
    repo = copyRepo(blocked.repo);
    return blocked.result;
  }

  it('runs nothing on a question-only turn, even in a dirty repo whose tests fail', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    expect(promptStart(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(logOf(repo))).toBe(false);
  });

  it('blocks an edit that breaks a test, with the test name, expected and received values and file:line', () => {
    const result = blockedOnce();
    expect(result.code).toBe(2);
    // Non-empty stdout keeps Claude Code from taking the block for a missing hook script (issue 12).
    expect(JSON.parse(result.stdout)).toEqual({ systemMessage: 'gate: refused the stop (block 1 of 3): test failed; the agent has the report.' });
    const report = result.stderr;
    expect(report).toMatch(/^gate: 1 of 1 checks failed \(test\); stop refused, block 1 of 3\./);
    expect(report).toContain('$ npx vitest run --reporter=default --passWithNoTests src/sum.test.ts');
    expect(report).toContain('failed (exit 1)');
    expect(report).toContain('sum > adds two numbers');
    expect(report).toContain('expected -1 to be 3');
    expect(report).toMatch(/^- 3$/m);
    expect(report).toMatch(/^\+ -1$/m);
    expect(report).toMatch(/src\/sum\.test\.ts:6:\d+/);
    expect(report).toContain('full log: .git/gate/logs/test.log');
    expect(report).toMatch(/Do not skip, delete or weaken tests/);
    expect(report).not.toMatch(ANSI);
    expect(report.length).toBeLessThanOrEqual(6000);
  });

  it('gives the same bytes for the same failure', () => {
    const first = blockedOnce().stderr;
    const second = stop(repo, 'second-session').stderr;
    expect(first).not.toBe('');
    expect(second).toBe(first);
  });

  it('still blocks a broken change the agent committed', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/sum.ts', SUM_BROKEN);
    repo.commit('agent: refactor sum');
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected -1 to be 3');
  });

  it('does not run the test gate for a docs-only change', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    repo.commit('already red');
    promptStart(repo);
    repo.write('README.md', '# fixture\n\nMore words.\n');
    repo.write('docs/guide.md', '# Guide\n\nNew section.\n');
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(logOf(repo))).toBe(false);
  });

  it('lets the stop through after the fix, and does not run again on an unchanged tree', () => {
    expect(blockedOnce().code).toBe(2);
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const ranAt = statSync(logOf(repo)).mtimeMs;
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(stop(repo, 'another-session')).toMatchObject({ code: 0, stdout: '' });
    expect(statSync(logOf(repo)).mtimeMs).toBe(ranAt);
  });

  it('lets a stop through at once when nothing changed since the block', () => {
    expect(blockedOnce().code).toBe(2);
    const ranAt = statSync(logOf(repo)).mtimeMs;
    const again = stop(repo);
    expect(again.code).toBe(0);
    expect(systemMessage(again.stdout)).toMatch(/without changing anything since it was blocked.*test/);
    expect(statSync(logOf(repo)).mtimeMs).toBe(ranAt);
  });

  it.skipIf(!onLinux)('kills a hanging test at the gate timeout and leaves nothing running; blocks once (the turn may have made it hang), then gives no verdict', () => {
    repo = makeRepo(vitestProject({ gates: [{ name: 'test', preset: 'vitest', timeout: 3 }] }), { nodeModules: true });
    promptStart(repo);
    repo.write('src/hang.test.ts', "import { it } from 'vitest';\nit('hangs', () => { for (;;) {} });\n");
    const first = stop(repo);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain('## test: timed out after 3 s');
    expect(first.stderr).toContain('It did not finish within its timeout of 3 s: the change may make a test hang or loop — find it and fix it.');
    expect(processesIn(repo.dir)).toEqual([]);
    // The agent changes something, and the gate times out again: too slow for its timeout, or a hang it was told of.
    repo.write('src/hang.test.ts', "import { it } from 'vitest';\nit('hangs', () => { for (;;) {} }); // still\n");
    const second = stop(repo);
    expect(second.code).toBe(0);
    expect(systemMessage(second.stdout)).toMatch(/no verdict from test \(timed out after 3 s\)/);
    expect(processesIn(repo.dir)).toEqual([]);
    // "block": every timeout is a failure, the one before or not.
    const config = JSON.parse(readFileSync(join(repo.dir, 'gate.config.json'), 'utf8'));
    repo.write('gate.config.json', JSON.stringify({ ...config, onTimeout: 'block' }));
    const third = stop(repo);
    expect(third.code).toBe(2);
    expect(third.stderr).toContain('## test: timed out after 3 s');
    expect(third.stderr).not.toContain('It did not finish within its timeout');
  });
});

describe('gate run never traps the agent on bad input or its own faults', () => {
  it('allows the stop and says why when the config is invalid', () => {
    repo = makeRepo(vitestProject({ gates: [{ name: 'test', preset: 'vitest', timeout: '60s' }] }), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(systemMessage(result.stdout)).toMatch(/config is invalid[\s\S]*gate\.config\.json: gates\[0\]\.timeout: expected a number, got "60s"/);
  });

  it.each([
    ['an empty payload', ''],
    ['a non-JSON payload', 'hello\x00\xff'],
    ['a JSON array', '[1,2,3]'],
    ['an oversized payload', `{"hook_event_name":"Stop","pad":"${'x'.repeat(3 * 1024 * 1024)}"}`],
  ])('allows %s with a notice, without crashing', (_name, input) => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = runBin(['run'], { cwd: repo.dir, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, input });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(systemMessage(result.stdout)).toMatch(/no valid JSON payload/);
  });

  it('keeps a session id with ../ inside its state directory', () => {
    repo = makeRepo(vitestProject({ gates: [SUM_CHECK_GATE] }), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const evil = '../../../../escaped';
    expect(stop(repo, evil).code).toBe(2);
    const sessions = readdirSync(join(repo.dir, '.git', 'gate', 'sessions'));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatch(/^h-[0-9a-f]{32}\.json$/);
    expect(existsSync(join(repo.dir, '..', 'escaped.json'))).toBe(false);
  });

  it('is off with GATE=0', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = runBin(['run'], { cwd: repo.dir, env: { ...repo.env, GATE: '0', CLAUDE_PROJECT_DIR: repo.dir }, input: hookPayload('Stop', 's', repo.dir) });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('skips gates named in GATE_SKIP', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = runBin(['run'], { cwd: repo.dir, env: { ...repo.env, GATE_SKIP: 'lint, test', CLAUDE_PROJECT_DIR: repo.dir }, input: hookPayload('Stop', 's', repo.dir) });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('allows while background tasks run, and a SubagentStop unless the config opts in', () => {
    repo = makeRepo(vitestProject({ gates: [SUM_CHECK_GATE] }), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    expect(stop(repo, 's', { background_tasks: [{ id: 'agent-1', status: 'running' }] })).toMatchObject({ code: 0, stdout: '' });
    const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir };
    expect(runBin(['run'], { cwd: repo.dir, env, input: hookPayload('SubagentStop', 's', repo.dir) })).toMatchObject({ code: 0, stdout: '' });
    repo.write('gate.config.json', JSON.stringify({ subagents: true, gates: [SUM_CHECK_GATE] }));
    expect(runBin(['run'], { cwd: repo.dir, env, input: hookPayload('SubagentStop', 's', repo.dir) }).code).toBe(2);
  });

  it('resolves the project from CLAUDE_PROJECT_DIR when the agent has cd-ed elsewhere', () => {
    repo = makeRepo(vitestProject({ gates: [SUM_CHECK_GATE] }), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const elsewhere = join(repo.home);
    const result = runBin(['run'], { cwd: elsewhere, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, input: hookPayload('Stop', 's', elsewhere) });
    expect(result.code).toBe(2);
  });

  it('stays silent where there is no gate config; outside git it checks nothing by default, says so once a session and records each stop', () => {
    repo = makeRepo({ 'a.ts': 'x' });
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const plain = makeRepo(vitestProject(), { git: false, nodeModules: true });
    const stateDir = outsideGitStateDir(plain.dir);
    try {
      plain.write('src/sum.ts', SUM_BROKEN);
      const first = stop(plain);
      expect(first.code).toBe(0);
      expect(systemMessage(first.stdout)).toBe(`gate: ${plain.dir} is not in a git repository, so gate cannot tell what changed and checks no stop here ("outsideGit": "skip"; "run" runs every gate at every stop). Said once per session; each stop is in the stop log.`);
      expect(stop(plain)).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(readStopLog(stateDir).records.map((record) => [record.session, record.outcome, record.reason])).toEqual([
        ['session-1', 'allow', 'not in a git repository'],
        ['session-1', 'allow', 'not in a git repository'],
      ]);
      plain.write('gate.config.json', JSON.stringify({ outsideGit: 'run', gates: [SUM_CHECK_GATE] }));
      expect(stop(plain).code).toBe(2);
    } finally {
      plain.cleanup();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('a stop whose cwd is outside git, with no project directory from the harness, is said and recorded', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    // The agent cd-ed out of the project, and the harness sets no CLAUDE_PROJECT_DIR.
    const elsewhere = repo.home;
    const stateDir = outsideGitStateDir(elsewhere);
    try {
      const result = runBin(['run'], { cwd: elsewhere, env: repo.env, input: hookPayload('Stop', 's', elsewhere) });
      expect(result.code).toBe(0);
      expect(systemMessage(result.stdout)).toMatch(/^gate: this stop was not checked: its directory \(.*\/home\) is not in a git repository, has no gate\.config\.json, and the harness named no project directory/);
      expect(readStopLog(stateDir).records).toMatchObject([{ session: 's', event: 'stop', outcome: 'allow', reason: 'not in a git repository' }]);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('allows during a merge in progress', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    repo.write('.git/MERGE_HEAD', repo.git('rev-parse', 'HEAD'));
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('allows and tells the human when git is missing', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const env = { ...repo.env, PATH: '/nonexistent', CLAUDE_PROJECT_DIR: repo.dir };
    const result = runBin(['run'], { cwd: repo.dir, env, input: hookPayload('Stop', 's', repo.dir) });
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/git was not found/);
  });
});

/** Processes whose working directory is inside `dir`: what a gate left running. */
function processesIn(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (cwd.startsWith(dir) && !/^\d+ \(.*\) Z/.test(state)) found.push(`${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

describe('cached verdicts', () => {
  it('does not run again a gate that passed on exactly the files it covers', () => {
    const counter = "require('fs').appendFileSync('runs.txt', 'ran\\n')";
    const config = {
      gates: [SUM_CHECK_GATE, { name: 'marker', run: ['node', '-e', counter], on: ['src/**/*.ts'], ignore: ['src/sum.ts'] }],
    };
    repo = makeRepo({ ...vitestProject(config), '.gitignore': 'node_modules\nruns.txt\n', 'src/other.ts': 'export const x = 1;\n' }, { nodeModules: true });
    promptStart(repo);
    repo.write('src/sum.ts', SUM_BROKEN);
    repo.write('src/other.ts', 'export const x = 2;\n');
    expect(stop(repo).code).toBe(2);
    repo.write('src/sum.ts', SUM_OK);
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(join(repo.dir, 'runs.txt'), 'utf8')).toBe('ran\n');
    // A change to a file it covers runs it again.
    repo.write('src/other.ts', 'export const x = 3;\n');
    expect(stop(repo).code).toBe(0);
    expect(readFileSync(join(repo.dir, 'runs.txt'), 'utf8')).toBe('ran\nran\n');
  });
});

describe('the same stop delivered twice at once', () => {
  it('runs the gates once; one copy blocks, the other lets its copy through', async () => {
    const counter = "require('fs').appendFileSync('runs.txt', 'ran\\n'); setTimeout(() => process.exit(1), 1500)";
    repo = makeRepo({ ...vitestProject({ gates: [{ name: 'slow', run: ['node', '-e', counter] }] }), '.gitignore': 'node_modules\nruns.txt\n' }, { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir };
    const both = await Promise.all([1, 2].map(() => runBinAsync(['run'], repo.dir, env, hookPayload('Stop', 'same-session', repo.dir))));
    expect(both.map((r) => r.code).sort()).toEqual([0, 2]);
    expect(both.find((r) => r.code === 0)).toMatchObject({ stdout: '', stderr: '' });
    expect(readFileSync(join(repo.dir, 'runs.txt'), 'utf8')).toBe('ran\n');
  });
});

function runBinAsync(args: string[], cwd: string, env: Record<string, string>, input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [GATE_BIN, ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('the record of real stops', () => {
  it('gate log and gate stats match a scripted sequence of stops through the hook', () => {
    repo = makeRepo(vitestProject({ maxBlocks: 2, gates: [{ name: 'test', preset: 'vitest' }] }), { nodeModules: true });
    promptStart(repo);
    expect(stop(repo).code).toBe(0); // nothing changed: fast
    repo.write('src/sum.ts', SUM_BROKEN);
    expect(stop(repo).code).toBe(2); // blocked
    expect(stop(repo).code).toBe(0); // unchanged since the block: fast
    repo.write('src/sum.ts', SUM_STILL_BROKEN);
    expect(stop(repo).code).toBe(2); // blocked again
    repo.write('src/sum.ts', SUM_BROKEN.replace('a - b', '0'));
    expect(stop(repo).code).toBe(2); // a new tree, still red: block 1 again (the unchanged stop reset the count)
    repo.write('src/sum.ts', SUM_STILL_BROKEN.replace('a * b', 'a * b * 2'));
    expect(stop(repo).code).toBe(0); // the second block in a row was the last: let through

    const records = JSON.parse(runBin(['log', '--json'], { cwd: repo.dir, env: repo.env }).stdout) as Array<{ outcome: string; path: string; reason: string; blocks: number }>;
    expect(records.map((r) => [r.outcome, r.path, r.reason, r.blocks])).toEqual([
      ['allow', 'fast', 'no change', 0],
      ['block', 'checked', 'failed', 1],
      ['allow', 'fast', 'unchanged since block', 0],
      ['block', 'checked', 'failed', 1],
      ['block', 'checked', 'failed', 2],
      ['escape', 'checked', 'let through after 2 blocks', 0],
    ]);
    const stats = JSON.parse(runBin(['stats', '--json'], { cwd: repo.dir, env: repo.env }).stdout);
    expect(stats).toMatchObject({ stops: 6, sessions: 1, fastPath: { stops: 2 }, outcomes: { allow: 2, block: 3, escape: 1, error: 0 } });
    expect(stats.failingGates).toEqual([expect.objectContaining({ name: 'test' })]);
  });
});
