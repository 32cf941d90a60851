// One scenario = a fresh copy of the packed-gate template project as a git repo, gate installed with
// the real `npx gate init --harness NAME --yes`, the Chat Completions mock scripted, and one real
// agent CLI run (Qwen Code, Factory Droid or Copilot CLI) in the repo. Shared by tests/harness/{qwen,
// factory,copilot}/; each folder supplies an AgentCli.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { writeFileCommand, type CommandResult, type GateProject } from '../claude/gate-project.mjs';
import { useTemplateProjects } from './template-projects.js';
import { lastUserText, startChatCompletionsMock, type ChatCompletionsMock, type RecordedRequest, type Step } from './chat-completions-mock.mjs';

/** The first line of every report gate blocks with (src/report/render-report.ts). */
export const REPORT_HEADER = /^gate: \d+ of \d+ checks failed \(.*\); stop refused, block (\d+) of (\d+)\./m;

export interface AgentCommand {
  file: string;
  args: string[];
  /** added to PATH, LANG, HOME and the project's hermetic git/npm settings */
  env: Record<string, string>;
}

/** How one harness's real CLI is driven offline. */
export interface AgentCli {
  label: string;
  /** A tool call that makes the agent run `command` in its shell. */
  shell(command: string): Step;
  /** Writes the CLI's user-level config into `home` (model provider, trust); runs before gate init. */
  prepareHome(home: string, repo: string, mock: ChatCompletionsMock): void;
  command(prompt: string, home: string, mock: ChatCompletionsMock): AgentCommand;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface AgentRun extends ProcessResult {
  /** the agent's own model requests, in order */
  main: RecordedRequest[];
  /** what each main request sent after the model's last turn (user and tool messages) */
  sent: string[];
  /** indexes into `main` of the requests that carried gate's report */
  blocked: number[];
}

export interface Scenario {
  project: GateProject;
  mock: ChatCompletionsMock;
  /** what each `gate init` printed */
  inits: CommandResult[];
  run(prompt: string, steps: readonly Step[], options?: { timeoutMs?: number }): Promise<AgentRun>;
  /** whether the test gate ran at all (its log exists) */
  testGateRan(): boolean;
  sessionFiles(): string[];
}

/** `gate init` argument lists, run in order; `[]` is a plain Claude Code install. */
export type Install = string[][];

/** Runs a program in its own process group, killed whole on timeout; stdin is closed. */
export function runProcess(command: AgentCommand & { cwd: string }, timeoutMs: number): Promise<ProcessResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, command.args, { cwd: command.cwd, env: command.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let timedOut = false;
    const killGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 3_000).unref();
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      const result = { exitCode, signal, stdout, stderr, durationMs: Math.round(performance.now() - started) };
      if (timedOut) reject(new Error(`${command.file} timed out after ${timeoutMs} ms and was killed:\n${stdout}\n${stderr}`));
      else resolve(result);
    });
  });
}

/** Registers cleanup; returns a function that starts a scenario. */
export function useChatScenarios(cli: AgentCli): (install: Install, options?: { spacedPath?: boolean }) => Promise<Scenario> {
  const newProject = useTemplateProjects('chat');

  return async (install, options = {}) => {
    const mock = await startChatCompletionsMock();
    const project = newProject({ spacedPath: options.spacedPath, closeWith: () => mock.close() });
    cli.prepareHome(project.home, project.repo, mock);
    const inits = install.map((args) => {
      const init = project.gate('init', ...args, '--no-check', '--yes');
      expect(init.code, `gate init ${args.join(' ')} failed:\n${init.stdout}\n${init.stderr}`).toBe(0);
      return init;
    });
    // A team commits what init wrote (a personal install's files are gitignored or user-level).
    if (install.length > 0) project.commit('install gate');
    const stateDir = join(project.repo, '.git', 'gate');
    return {
      project,
      mock,
      inits,
      async run(prompt, steps, options = {}) {
        mock.script(steps);
        // This run's requests only: a scenario may run several prompts one after another.
        const earlier = mock.mainRequests().length;
        const command = cli.command(prompt, project.home, mock);
        const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: project.home, ...project.env, ...command.env };
        const result = await runProcess({ ...command, env, cwd: project.repo }, options.timeoutMs ?? 180_000);
        expect(result.exitCode, `${cli.label} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
        const main = mock.mainRequests().slice(earlier);
        const sent = main.map((request) => lastUserText(request));
        const blocked = sent.flatMap((text, index) => (REPORT_HEADER.test(text) ? [index] : []));
        return { ...result, main, sent, blocked };
      },
      testGateRan: () => existsSync(join(stateDir, 'logs', 'test.log')),
      sessionFiles: () => (existsSync(join(stateDir, 'sessions')) ? readdirSync(join(stateDir, 'sessions')).filter((name) => name.endsWith('.json')) : []),
    };
  };
}

/** A shell tool call that (re)writes a file with a quoted heredoc. */
export const editStep = (cli: AgentCli, path: string, text: string): Step => cli.shell(writeFileCommand(path, text));
export const say = (text: string): Step => ({ text });

/** Red in a different way each time, so every stop has something new to check. */
export const stillBroken = (broken: string, k: number): string => broken.replace('a - b', `a - b - ${k}`);
