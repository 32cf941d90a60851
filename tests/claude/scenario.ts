// One scenario = a fresh copy of the template project as a git repo, gate installed with the real
// `npx gate init`, the mock model scripted, and one real `claude -p` run in the repo.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, inject } from 'vitest';
import { runClaude, type ClaudeRun } from './claude-cli.mjs';
import { makeProject, writeFileCommand, type CommandResult, type GateProject } from './gate-project.mjs';
import { lastUserText, startMockAnthropic, type MockAnthropic, type RecordedRequest, type Step } from './mock-anthropic.mjs';

/** What Claude Code puts before an exit-2 block's stderr. */
export const FEEDBACK = 'Stop hook feedback';
/** What Claude Code (2.1.163 on) puts before a Stop hook's additionalContext: gate's block when the report fits. */
export const CONTEXT = 'Stop hook additional context: ';

/** Whether a message the model read carries a Stop hook's block, in either form. */
export const carriesBlock = (text: string): boolean => text.includes(FEEDBACK) || text.includes(CONTEXT);

export interface AgentRun extends ClaudeRun {
  /** the main-conversation requests the mock received, in order */
  main: RecordedRequest[];
  /** the last user message of each main request */
  sent: string[];
  /** indexes into `main` of the requests that carried a Stop hook's block (feedback or additionalContext) */
  blocked: number[];
  /** messages shown to the human (`system`/`informational` events; stream-json only) */
  notices: string[];
  /** keys of the notifications shown to the human, like `stop-hook-error` (stream-json only) */
  notifications: string[];
}

export interface Scenario {
  project: GateProject;
  mock: MockAnthropic;
  /** what `gate init` printed (undefined when the scenario installed nothing) */
  init: CommandResult | undefined;
  run(prompt: string, steps: readonly Step[], options?: { outputFormat?: 'json' | 'stream-json'; timeoutMs?: number; extraArgs?: readonly string[] }): Promise<AgentRun>;
  /** the Stop hook command from a settings file, exactly as the model sees it in brackets */
  hookCommand(settingsFile?: string): string;
  /** whether the test gate ran at all (its log exists) */
  testGateRan(): boolean;
  sessionFiles(): string[];
}

/** A Bash tool call. */
export const bash = (command: string): Step => ({ toolUse: { name: 'Bash', input: { command } } });
/** A Bash tool call that (re)writes a file with a heredoc. */
export const edit = (path: string, text: string): Step => bash(writeFileCommand(path, text));
export const say = (text: string): Step => ({ text });

/** `Stop hook feedback:\n[<command>]: ` — what Claude Code puts before a hook's stderr. */
export const feedbackPrefix = (command: string): string => `${FEEDBACK}:\n[${command}]: `;

// 2.1.332 wraps the feedback: `<system-reminder>\n<a sentence about hook output>\n<the feedback>\n</system-reminder>`.
const WRAPPED = /^<system-reminder>\n[^\n]*\n([\s\S]*)\n<\/system-reminder>$/;

// 2.1.163+: `<system-reminder>\nStop hook additional context: <the hook's additionalContext>\n</system-reminder>`.
const CONTEXT_WRAPPED = /^<system-reminder>\nStop hook additional context: ([\s\S]*)\n<\/system-reminder>$/;

/** The additionalContext of a Stop hook as the model read it in a user message; undefined when the message is not that. */
export function contextIn(sent: string): string | undefined {
  return CONTEXT_WRAPPED.exec(sent)?.[1];
}

/**
 * The hook's stderr as the model read it in a user message: after `Stop hook feedback:\n[<command>]: `,
 * which opens the message (2.1.328) or the reminder that wraps it (2.1.332). Undefined when the
 * message is not that.
 */
export function feedbackIn(sent: string, command: string): string | undefined {
  const feedback = WRAPPED.exec(sent)?.[1] ?? sent;
  const prefix = feedbackPrefix(command);
  return feedback.startsWith(prefix) ? feedback.slice(prefix.length) : undefined;
}

function notificationsOf(events: unknown[]): string[] {
  return events.flatMap((event) => {
    if (typeof event !== 'object' || event === null) return [];
    const { type, subtype, key } = event as Record<string, unknown>;
    return type === 'system' && subtype === 'notification' && typeof key === 'string' ? [key] : [];
  });
}

function noticesOf(events: unknown[]): string[] {
  return events.flatMap((event) => {
    if (typeof event !== 'object' || event === null) return [];
    const { type, subtype, content } = event as Record<string, unknown>;
    return type === 'system' && subtype === 'informational' && typeof content === 'string' ? [content] : [];
  });
}

/** Registers cleanup; returns a function that starts a scenario. */
export function useScenarios(): (install?: 'team' | 'personal' | 'none') => Promise<Scenario> {
  const open: Array<{ project: GateProject; mock: MockAnthropic }> = [];
  afterEach(async () => {
    for (const { project, mock } of open.splice(0)) {
      await mock.close();
      project.cleanup();
    }
  });

  return async (install = 'team') => {
    const project = makeProject(inject('gateTemplate').dir);
    const mock = await startMockAnthropic();
    open.push({ project, mock });
    let init: CommandResult | undefined;
    if (install !== 'none') {
      init = project.gate('init', ...(install === 'personal' ? ['--personal'] : []), '--no-check', '--yes');
      expect(init.code, `gate init failed:\n${init.stdout}\n${init.stderr}`).toBe(0);
      // A team commits what init wrote; a personal install writes only ignored files and .gitignore.
      if (install === 'team') project.commit('install gate');
    }
    const stateDir = join(project.repo, '.git', 'gate');
    return {
      project,
      mock,
      init,
      async run(prompt, steps, options = {}) {
        mock.script(steps);
        // This run's requests only: a scenario may run several prompts one after another.
        const earlier = mock.mainRequests().length;
        const result = await runClaude({
          cwd: project.repo,
          prompt,
          mockUrl: mock.url,
          configDir: project.configDir,
          env: project.env,
          ...options,
        });
        expect(result.exitCode, `claude -p failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
        expect(result.json, `no result on stdout:\n${result.stdout}`).not.toBeNull();
        expect(result.json?.is_error).toBe(false);
        const main = mock.mainRequests().slice(earlier);
        const sent = main.map((request) => lastUserText(request));
        const blocked = sent.flatMap((text, index) => (carriesBlock(text) ? [index] : []));
        return { ...result, main, sent, blocked, notices: noticesOf(result.events), notifications: notificationsOf(result.events) };
      },
      hookCommand(settingsFile = '.claude/settings.json') {
        const settings = JSON.parse(project.read(settingsFile)) as { hooks: { Stop: Array<{ hooks: Array<{ command: string }> }> } };
        const command = settings.hooks.Stop[0]?.hooks[0]?.command;
        if (command === undefined) throw new Error(`no Stop hook in ${settingsFile}`);
        return command;
      },
      testGateRan: () => existsSync(join(stateDir, 'logs', 'test.log')),
      sessionFiles: () => (existsSync(join(stateDir, 'sessions')) ? readdirSync(join(stateDir, 'sessions')) : []),
    };
  };
}
