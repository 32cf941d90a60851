// One scenario = a fresh copy of the packed-gate template project as a git repo, gate installed with
// the real `npx gate init --harness gemini --yes`, mock-gemini.mjs scripted, and one real
// `gemini -p` run in the repo. The shape is chat-completions-scenario.ts's, so the shared
// scenarios (../stop-gate-scenarios.ts) run on it.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { useTemplateProjects } from '../template-projects.js';
import { REPORT_HEADER, runProcess, type AgentRun, type Install, type Scenario } from '../chat-completions-scenario.js';
import { gemini } from './gemini-cli.js';
import { lastUserText, startGeminiMock, type GeminiMock } from './mock-gemini.mjs';

export interface GeminiRun extends AgentRun {
  /** `gemini -p --output-format json`'s result object */
  result: { response?: string; warnings?: string[]; error?: unknown } | undefined;
}

export interface GeminiScenario extends Scenario {
  mock: GeminiMock;
  run(prompt: string, steps: Parameters<Scenario['run']>[1], options?: { timeoutMs?: number }): Promise<GeminiRun>;
}

/** Registers cleanup; returns a function that starts a scenario. */
export function useGeminiScenarios(): (install: Install, options?: { spacedPath?: boolean }) => Promise<GeminiScenario> {
  const newProject = useTemplateProjects('gemini');

  return async (install, options = {}) => {
    // Gemini CLI substitutes $GEMINI_PROJECT_DIR into the command itself: a path with a space tests that.
    const mock = await startGeminiMock();
    const project = newProject({ spacedPath: options.spacedPath, closeWith: () => mock.close() });
    gemini.prepareHome(project.home, project.repo, mock);
    const inits = install.map((args) => {
      const init = project.gate('init', ...args, '--no-check', '--yes');
      expect(init.code, `gate init ${args.join(' ')} failed:\n${init.stdout}\n${init.stderr}`).toBe(0);
      return init;
    });
    if (install.length > 0) project.commit('install gate');
    const stateDir = join(project.repo, '.git', 'gate');
    return {
      project,
      mock,
      inits,
      async run(prompt, steps, runOptions = {}) {
        mock.script(steps);
        // This run's requests only: a scenario may run several prompts one after another.
        const earlier = mock.mainRequests().length;
        const command = gemini.command(prompt, project.home, mock);
        const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: project.home, ...project.env, ...command.env };
        const result = await runProcess({ ...command, env, cwd: project.repo }, runOptions.timeoutMs ?? 180_000);
        expect(result.exitCode, `${gemini.label} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
        const main = mock.mainRequests().slice(earlier);
        const sent = main.map((request) => lastUserText(request));
        const blocked = sent.flatMap((text, index) => (REPORT_HEADER.test(text) ? [index] : []));
        return { ...result, main, sent, blocked, result: parseResult(result.stdout) };
      },
      testGateRan: () => existsSync(join(stateDir, 'logs', 'test.log')),
      sessionFiles: () => (existsSync(join(stateDir, 'sessions')) ? readdirSync(join(stateDir, 'sessions')).filter((name) => name.endsWith('.json')) : []),
    };
  };
}

function parseResult(stdout: string): GeminiRun['result'] {
  const start = stdout.indexOf('{');
  if (start < 0) return undefined;
  try {
    return JSON.parse(stdout.slice(start)) as GeminiRun['result'];
  } catch {
    return undefined;
  }
}
