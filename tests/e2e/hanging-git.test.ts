import { chmodSync, existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { goneWithin } from '../helpers/processes.js';
import { stopSignalledWhen } from '../helpers/run-async.js';
import { GATE_BIN, promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 38, points 6 and 7: what the repository runs inside gate's git calls — a core.fsmonitor
// hook, a clean filter of a path in .gitattributes — can hang or take seconds. A hung git is
// killed before the hook's timeout (here a few seconds, from .claude/settings.json) and the stop
// is allowed, told and recorded; a slow one runs its filter once per stop, and a gate it left no
// time for says so instead of "timed out after 0 s".

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const GATE_CONFIG = `${JSON.stringify({ gates: [{ name: 'test', run: ['node', '-e', '0'], timeout: 5 }] })}\n`;

/** gate's Stop hook as `gate init` writes it, with the hook timeout the test needs. */
function claudeSettings(stopTimeout: number): string {
  const entry = (timeout: number) => [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run', timeout }] }];
  return `${JSON.stringify({ hooks: { Stop: entry(stopTimeout), UserPromptSubmit: entry(30) } }, null, 2)}\n`;
}

/** A script outside the repository (git runs it from the work tree's root). */
function script(name: string, body: string): string {
  const path = join(repo.home, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('git that hangs or is slow inside a stop', () => {
  it('a hanging core.fsmonitor hook: the stop is allowed within the hook timeout, the cause named, the stop recorded', () => {
    repo = makeRepo({ 'gate.config.json': GATE_CONFIG, '.claude/settings.json': claudeSettings(4), 'src/a.js': 'export const a = 1;\n' });
    repo.git('config', 'core.fsmonitor', script('fsmonitor-hangs', 'exec sleep 60'));
    repo.write('src/a.js', 'export const a = 2;\n');
    // Without a limit the stop waits for the hook's sleep (60 s): the run is killed at 20 s and throws.
    const result = runBin(['run'], { cwd: repo.dir, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, input: stopPayload(repo.dir), timeoutMs: 20_000 });
    expect(result.code).toBe(0);
    // The hook's 4 s less the 2 s gate keeps to say why.
    expect(result.durationMs).toBeLessThan(4000);
    const notice = (JSON.parse(result.stdout) as { systemMessage: string }).systemMessage;
    expect(notice).toMatch(/^gate: "git status" did not finish within \d s and was killed before the hook's timeout, so the stop was allowed unchecked\. /);
    expect(notice).toContain('a core.fsmonitor hook ("git config core.fsmonitor") or a clean filter');
    expect(notice).toContain('"git config --unset core.fsmonitor"');
    const records = JSON.parse(runBin(['log', '--json'], { cwd: repo.dir, env: repo.env }).stdout) as Array<{ outcome: string; reason: string }>;
    expect(records.at(-1)).toMatchObject({ outcome: 'allow', reason: expect.stringMatching(/^git status timed out after \d s$/) });
    const verdict = runBin(['verdict'], { cwd: repo.dir, env: repo.env });
    expect(verdict.code).toBe(1);
    expect(verdict.stdout).toMatch(/let through unchecked \(git status timed out after \d s\)/);
  });

  it('the harness kills the hook while git hangs (its timeout is longer than gate knows): the fsmonitor hook is killed with gate', async () => {
    repo = makeRepo({ 'gate.config.json': GATE_CONFIG, '.claude/settings.json': claudeSettings(600), 'src/a.js': 'export const a = 1;\n' });
    const pidFile = join(repo.home, 'fsmonitor.pid');
    repo.git('config', 'core.fsmonitor', script('fsmonitor-hangs', `echo $$ > '${pidFile}'\nexec sleep 60`));
    repo.write('src/a.js', 'export const a = 2;\n');
    const done = await stopSignalledWhen(GATE_BIN, { cwd: repo.dir, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, input: stopPayload(repo.dir) }, () => existsSync(pidFile), 'SIGTERM');
    expect(done.sent).toBe(true);
    expect(done.code).toBe(143);
    // git runs in a group of its own (to be killed at gate's limit with what it started), so the
    // harness's signal to the hook's group no longer reaches it: gate passes it on.
    const hook = Number(readFileSync(pidFile, 'utf8'));
    expect(await goneWithin(hook, 2000)).toBe(true);
  });

  it("a slow clean filter runs once per stop, and a gate it left no time for is 'not started', with the real reason", () => {
    // A hook timeout of 11 s leaves the gates until 1 s after the hook's start (10 s are kept to
    // kill, judge and report): the filter's 1 s in `git status` spends that.
    repo = makeRepo({ 'gate.config.json': GATE_CONFIG, '.claude/settings.json': claudeSettings(11), '.gitattributes': 'test/*.js filter=slow\n', 'test/a.test.js': 'one\n' });
    // Not racily clean (written in the index's own second): git status would then read the file
    // again to be sure, and run the filter three times itself, as an agent's edit minutes later does not.
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(repo.dir, 'test/a.test.js'), past, past);
    repo.git('update-index', '--refresh');
    promptStart(repo);
    const runs = join(repo.home, 'filter-runs');
    repo.git('config', 'filter.slow.clean', script('slow-clean', `echo run >> '${runs}'\nsleep 1\nexec cat`));
    repo.write('test/a.test.js', 'two\n');
    const result = stop(repo);
    expect(result.code).toBe(0);
    // git status once; the tamper check's diff against the start no more (it ran it twice).
    expect(readFileSync(runs, 'utf8')).toBe('run\n');
    expect(result.stdout).toMatch(/test \(not started: the hook's timeout was spent by git \(\d+\.\d s\)\)/);
    expect(result.stdout).not.toMatch(/timed out after 0 s/);
  });
});

function stopPayload(dir: string): string {
  return JSON.stringify({ session_id: 'session-1', transcript_path: '/nonexistent/transcript.jsonl', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false });
}

