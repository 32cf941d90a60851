// Cursor has no CLI that runs offline, so gate is held to Cursor's documented hook contract instead:
// `gate init --harness cursor` from the packed tarball writes .cursor/hooks.json, and each hook
// command is run the way Cursor runs it (a shell in the project root, CURSOR_PROJECT_DIR set, the
// documented JSON payload on stdin); what it prints is what Cursor would act on.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { makeProject, SUM_BROKEN, SUM_OK, type GateProject } from '../../claude/gate-project.mjs';
import { REPORT_HEADER } from '../chat-completions-scenario.js';
import { casesTimeout, DELIVERY_CASES, eachCaseInOneProject, expectDelivered, HEADER, occurrences, onlyTheTestGate, recordedStops } from '../delivery-cases.js';

interface HooksFile {
  version: number;
  hooks: Record<string, Array<{ command: string; timeout?: number; loop_limit?: number }>>;
}

interface HookResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed: Cursor reads exactly one JSON object */
  json: Record<string, unknown>;
}

const CONVERSATION = 'cdefee2d-2727-4b73-bf77-d9d830f31d2a';

// The run's packed-and-installed template (tests/claude/global-setup.ts), as every harness file copies.
const template = { dir: inject('gateTemplate').dir };
const projects: GateProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.cleanup();
});

function installed(...flags: string[]): { project: GateProject; hooksFile: string } {
  const project = makeProject(template.dir);
  projects.push(project);
  const init = project.gate('init', '--harness', 'cursor', ...flags, '--no-check', '--yes');
  expect(init.code, `gate init failed:\n${init.stdout}\n${init.stderr}`).toBe(0);
  project.commit('install gate');
  const hooksFile = flags.includes('--personal') ? join(project.home, '.cursor', 'hooks.json') : join(project.repo, '.cursor', 'hooks.json');
  return { project, hooksFile };
}

/** Runs the file's command for `event` as Cursor does: `sh -c` in the project root, payload on stdin. */
function fire(project: GateProject, hooksFile: string, event: 'stop' | 'beforeSubmitPrompt', fields: Record<string, unknown>): HookResult {
  const file = JSON.parse(readFileSync(hooksFile, 'utf8')) as HooksFile;
  const command = file.hooks[event]?.[0]?.command;
  if (command === undefined) throw new Error(`no ${event} hook in ${hooksFile}`);
  const payload = {
    conversation_id: CONVERSATION,
    generation_id: `gen-${Math.random().toString(36).slice(2)}`,
    model: 'claude-4-sonnet',
    hook_event_name: event,
    cursor_version: '1.7.2',
    workspace_roots: [project.repo],
    user_email: null,
    ...fields,
  };
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: project.home, LANG: 'C.UTF-8', ...project.env, CURSOR_PROJECT_DIR: project.repo, CURSOR_VERSION: '1.7.2' };
  const result = spawnSync('sh', ['-c', command], { cwd: project.repo, env, input: JSON.stringify(payload), encoding: 'utf8', timeout: 120_000 });
  const lines = result.stdout.split('\n').filter((line) => line !== '');
  expect(lines, `stdout must be exactly one JSON line:\n${result.stdout}\n${result.stderr}`).toHaveLength(1);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, json: JSON.parse(lines[0] ?? '') as Record<string, unknown> };
}

const stop = (loopCount: number, status = 'completed') => ({ status, loop_count: loopCount });
const prompt = (text: string) => ({ prompt: text, attachments: [] });
const stillBroken = (k: number): string => SUM_BROKEN.replace('a - b', `a - b - ${k}`);
const ALLOW = { continue: true };

describe('gate under Cursor, held to its documented hook contract', () => {
  it('init writes .cursor/hooks.json: version 1, a stop hook whose loop_limit is the bound, and a beforeSubmitPrompt hook', () => {
    const { hooksFile } = installed();
    const file = JSON.parse(readFileSync(hooksFile, 'utf8')) as HooksFile;
    expect(file.version).toBe(1);
    const command = '"$CURSOR_PROJECT_DIR"/node_modules/.bin/gate run --harness cursor';
    expect(file.hooks['stop']).toEqual([{ command, timeout: expect.any(Number), loop_limit: 3 }]);
    expect(file.hooks['stop']?.[0]?.timeout).toBeGreaterThanOrEqual(60);
    expect(file.hooks['stop']?.[0]?.timeout).toBeLessThan(10_000); // seconds, not milliseconds
    expect(file.hooks['beforeSubmitPrompt']).toEqual([{ command, timeout: 30 }]);
  });

  it('lets a prompt through and a turn that changed nothing end, answering only {"continue":true}', () => {
    const { project, hooksFile } = installed();
    expect(fire(project, hooksFile, 'beforeSubmitPrompt', prompt('What does this project do?'))).toMatchObject({ code: 0, json: ALLOW, stderr: '' });
    expect(fire(project, hooksFile, 'stop', stop(0))).toMatchObject({ code: 0, json: ALLOW, stderr: '' });
  });

  it('refuses a red stop with followup_message holding the report, and lets the fixed one end', () => {
    const { project, hooksFile } = installed();
    fire(project, hooksFile, 'beforeSubmitPrompt', prompt('Refactor sum.'));
    project.write('src/sum.ts', SUM_BROKEN);
    const blocked = fire(project, hooksFile, 'stop', stop(0));
    expect(blocked.code).toBe(0);
    expect(Object.keys(blocked.json)).toEqual(['followup_message']);
    const report = String(blocked.json['followup_message']);
    expect(report).toMatch(/^gate: 1 of 2 checks failed \(test\); stop refused, block 1 of 3\.\n/);
    expect(report).toContain('expected -1 to be 3');
    expect(report).toContain('src/sum.test.ts:6:');
    // Cursor submits the follow-up as the next user message: beforeSubmitPrompt sees the report.
    expect(fire(project, hooksFile, 'beforeSubmitPrompt', prompt(report)).json).toEqual(ALLOW);
    project.write('src/sum.ts', SUM_OK);
    expect(fire(project, hooksFile, 'stop', stop(1)).json).toEqual(ALLOW);
  });

  it("blocks exactly maxBlocks (3) times in a row, though each follow-up comes back as a prompt, then lets the stop through and says why on stderr (Cursor's hook log)", () => {
    const { project, hooksFile } = installed();
    // How often gate blocks: the typecheck gate passes at each of the four stops and adds only its tsc.
    onlyTheTestGate(project);
    fire(project, hooksFile, 'beforeSubmitPrompt', prompt('Refactor sum.'));
    const blocks: string[] = [];
    for (let k = 0; k < 3; k++) {
      project.write('src/sum.ts', stillBroken(k));
      const result = fire(project, hooksFile, 'stop', stop(k));
      const report = String(result.json['followup_message'] ?? '');
      blocks.push(REPORT_HEADER.exec(report)?.[1] ?? '');
      fire(project, hooksFile, 'beforeSubmitPrompt', prompt(report));
    }
    expect(blocks).toEqual(['1', '2', '3']);
    project.write('src/sum.ts', stillBroken(3));
    const fourth = fire(project, hooksFile, 'stop', stop(3));
    expect(fourth.json).toEqual(ALLOW);
    expect(fourth.stderr).toMatch(/let the turn end after 3 blocked stops in a row; still failing: test\b/);
  });

  it('never gates a loop that was aborted or ended in an error', () => {
    const { project, hooksFile } = installed();
    fire(project, hooksFile, 'beforeSubmitPrompt', prompt('Refactor sum.'));
    project.write('src/sum.ts', SUM_BROKEN);
    expect(fire(project, hooksFile, 'stop', stop(0, 'aborted')).json).toEqual(ALLOW);
    expect(fire(project, hooksFile, 'stop', stop(0, 'error')).json).toEqual(ALLOW);
    expect(project.exists('.git/gate/logs/test.log')).toBe(false);
  });

  it('takes the baseline at beforeSubmitPrompt: a question in a repo that was already red is not blocked', () => {
    const { project, hooksFile } = installed();
    project.write('src/sum.ts', SUM_BROKEN);
    fire(project, hooksFile, 'beforeSubmitPrompt', prompt('What does sum do?'));
    expect(fire(project, hooksFile, 'stop', stop(0)).json).toEqual(ALLOW);
    expect(project.exists('.git/gate/logs/test.log')).toBe(false);
  });

  it('installs --personal into ~/.cursor/hooks.json, which works in this repo and stays silent in one without a gate config', () => {
    const { project, hooksFile } = installed('--personal');
    expect(project.exists('.cursor/hooks.json')).toBe(false);
    fire(project, hooksFile, 'beforeSubmitPrompt', prompt('Refactor sum.'));
    project.write('src/sum.ts', SUM_BROKEN);
    expect(fire(project, hooksFile, 'stop', stop(0)).json).toHaveProperty('followup_message');

    // Another repository of the same user, with gate installed but not set up.
    const other = makeProject(template.dir);
    projects.push(other);
    other.write('src/sum.ts', SUM_BROKEN);
    const result = spawnSync('sh', ['-c', JSON.parse(readFileSync(hooksFile, 'utf8')).hooks.stop[0].command], {
      cwd: other.repo,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: project.home, ...other.env, CURSOR_PROJECT_DIR: other.repo },
      input: JSON.stringify({ conversation_id: 'x', hook_event_name: 'stop', status: 'completed', loop_count: 0, workspace_roots: [other.repo] }),
      encoding: 'utf8',
    });
    expect({ code: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 0, stdout: '{"continue":true}\n', stderr: '' });
  });
});

// Cursor also runs Claude Code's .claude hooks (its "third-party hooks", with its own payload). With
// both installs each stop would be gated twice; the .claude copy leaves a Cursor stop to Cursor's entry.
describe('a project with both a Claude Code and a Cursor install', () => {
  /** Runs .claude/settings.json's command for `event` as Cursor runs a third-party hook: a Cursor payload under the Claude name. */
  function fireClaudeEntry(project: GateProject, event: 'Stop' | 'UserPromptSubmit', fields: Record<string, unknown>): { code: number | null; stdout: string; stderr: string } {
    const settings = JSON.parse(readFileSync(join(project.repo, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    const command = settings.hooks[event]?.[0]?.hooks[0]?.command;
    if (command === undefined) throw new Error(`no ${event} hook in .claude/settings.json`);
    const payload = { conversation_id: CONVERSATION, session_id: CONVERSATION, generation_id: 'gen-1', hook_event_name: event, cursor_version: '1.7.2', workspace_roots: [project.repo], ...fields };
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: project.home, LANG: 'C.UTF-8', ...project.env, CURSOR_PROJECT_DIR: project.repo, CLAUDE_PROJECT_DIR: project.repo };
    const result = spawnSync('sh', ['-c', command], { cwd: project.repo, env, input: JSON.stringify(payload), encoding: 'utf8', timeout: 120_000 });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it("gates a stop once: the .claude entry leaves Cursor's stop to the .cursor entry, whose block is 1 of 3", () => {
    const { project, hooksFile } = installed();
    const claude = project.gate('init', '--no-check', '--yes');
    expect(claude.code, claude.stderr).toBe(0);
    project.commit('install gate for Claude Code too');
    expect(fireClaudeEntry(project, 'UserPromptSubmit', prompt('Refactor sum.'))).toMatchObject({ code: 0, stdout: '', stderr: '' });
    fire(project, hooksFile, 'beforeSubmitPrompt', prompt('Refactor sum.'));
    project.write('src/sum.ts', SUM_BROKEN);
    // Cursor runs both entries for the stop; the .claude copy says nothing and runs no gate.
    expect(fireClaudeEntry(project, 'Stop', stop(0))).toEqual({ code: 0, stdout: '', stderr: '' });
    const report = String(fire(project, hooksFile, 'stop', stop(0)).json['followup_message'] ?? '');
    expect(REPORT_HEADER.exec(report)?.[1]).toBe('1');
    // One gate run for the stop: the .claude copy is in no log, the .cursor one is the block.
    expect(recordedStops(project.repo).map((record) => record.outcome)).toEqual(['block']);
    expect(project.gate('doctor', '--harness', 'cursor').stdout).toMatch(/· \.claude\/settings\.json also has gate's Stop hook, which Cursor runs too .*each stop is gated once/);
  });
});

// Issue 12: reports a harness could drop or change. Cursor's docs say a non-empty followup_message is
// submitted as the next user message; they name no other condition. So the whole report must be in
// that one field, once, unaltered, with nothing else on stdout. docs/harness-cursor.md, "What can drop a block".
describe('every report reaches Cursor once, whole, in followup_message (documented contract)', () => {
  it('each of DELIVERY_CASES, one conversation after another in one project', async () => {
    const { project, hooksFile } = installed();
    await eachCaseInOneProject(project, DELIVERY_CASES, async (testCase, since) => {
      // A conversation of its own for each case, as a new Cursor chat has.
      const conversation = { conversation_id: `delivery-${DELIVERY_CASES.indexOf(testCase)}` };
      expect(fire(project, hooksFile, 'beforeSubmitPrompt', { ...prompt('Add a test.'), ...conversation }).json).toEqual(ALLOW);
      // The agent adds the failing test file and says it is done.
      project.write(testCase.path, testCase.text);
      const blocked = fire(project, hooksFile, 'stop', { ...stop(0), ...conversation });
      expect(blocked).toMatchObject({ code: 0, stderr: '' });
      expect(Object.keys(blocked.json)).toEqual(['followup_message']);
      expect(occurrences(blocked.stdout, HEADER)).toBe(1);
      // Cursor frames nothing: the follow-up message is the report, and all the model gets of the block.
      const report = String(blocked.json['followup_message']);
      expect(report.search(HEADER), report.slice(0, 300)).toBe(0);
      expectDelivered(testCase, report, report, project.repo, since);

      // The follow-up comes back as a prompt, the agent leaves it, and the unchanged stop ends the turn.
      expect(fire(project, hooksFile, 'beforeSubmitPrompt', { ...prompt(report), ...conversation }).json).toEqual(ALLOW);
      const unchanged = fire(project, hooksFile, 'stop', { ...stop(1), ...conversation });
      expect(unchanged.json).toEqual(ALLOW);
      expect(unchanged.stderr).toMatch(/^gate: the agent stopped again without changing anything since it was blocked/);
      expect(recordedStops(project.repo).slice(since).map((record) => record.outcome)).toEqual(['block', 'allow']);
    });
  }, casesTimeout(DELIVERY_CASES.length));
});
