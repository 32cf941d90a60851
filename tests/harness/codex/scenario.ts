// One scenario = a fresh copy of the template project (gate packed and installed from its tarball)
// as a git repo, gate installed with the real `npx gate init --harness codex`, the mock model
// scripted, and one real `codex exec` run.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { writeFileCommand, type CommandResult, type GateProject } from '../../claude/gate-project.mjs';
import { useTemplateProjects } from '../template-projects.js';
import { runCodex, writeCodexConfig, type CodexRun } from './codex-cli.js';
import { exec, lastInputText, startMockResponses, type MockResponses, type RecordedRequest, type Step } from './mock-responses.js';

/** Codex hands a Stop hook's continuation prompt to the model as `<hook_prompt hook_run_id="…">…</hook_prompt>`. */
const HOOK_PROMPT = /^<hook_prompt hook_run_id="([^"]*)">([\s\S]*)<\/hook_prompt>$/;

export interface AgentRun extends CodexRun {
  /** the model calls the mock received, in order */
  main: RecordedRequest[];
  /** what each model call was sent last (the newest user message or tool output) */
  sent: string[];
  /** indexes into `main` of the calls that carried a Stop hook's report */
  blocked: number[];
  /** those reports, XML entities decoded: gate's stderr as the agent reads it */
  reports: string[];
  /** the hook_run_id of each report */
  hookRunIds: string[];
}

export interface Scenario {
  project: GateProject;
  mock: MockResponses;
  init: CommandResult | undefined;
  /** runs `codex exec` in the repository, or in `subdir` of it */
  run(prompt: string, steps: readonly Step[], options?: { subdir?: string; bypassHookTrust?: boolean }): Promise<AgentRun>;
  hooksFile(): string;
  testGateRan(): boolean;
  sessionFiles(): string[];
}

export const edit = (path: string, text: string): Step => exec(writeFileCommand(path, text));

/**
 * Codex escapes exactly `<`, `>` and `&` in a hook prompt (quick-xml, measured): quotes and control
 * characters pass as they are, so a literal `&quot;` in a report arrives as `&amp;quot;`.
 */
function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', amp: '&' })[name] ?? '');
}

export interface ScenarioOptions {
  install?: 'team' | 'personal' | 'none';
  /** put the repository under a directory whose name has a space */
  spacedPath?: boolean;
}

/** Registers cleanup; returns a function that starts a scenario. */
export function useScenarios(): (options?: ScenarioOptions) => Promise<Scenario> {
  const newProject = useTemplateProjects('codex');

  return async ({ install = 'team', spacedPath = false } = {}) => {
    const mock = await startMockResponses();
    const project = newProject({ spacedPath, closeWith: () => mock.close() });
    writeCodexConfig(join(project.home, '.codex'), mock.baseUrl);
    let init: CommandResult | undefined;
    if (install !== 'none') {
      init = project.gate('init', '--harness', 'codex', ...(install === 'personal' ? ['--personal'] : []), '--no-check', '--yes');
      expect(init.code, `gate init failed:\n${init.stdout}\n${init.stderr}`).toBe(0);
      if (install === 'team') project.commit('install gate');
    }
    const stateDir = join(project.repo, '.git', 'gate');
    const hooksFile = install === 'personal' ? join(project.home, '.codex', 'hooks.json') : join(project.repo, '.codex', 'hooks.json');
    return {
      project,
      mock,
      init,
      async run(prompt, steps, { subdir, bypassHookTrust } = {}) {
        mock.script(steps);
        // This run's requests only: a scenario may run several prompts one after another.
        const earlier = mock.mainRequests().length;
        const cwd = subdir ? join(project.repo, subdir) : project.repo;
        mkdirSync(cwd, { recursive: true });
        const result = await runCodex({ cwd, prompt, home: project.home, tmp: join(project.root, 'tmp'), env: project.env, bypassHookTrust });
        expect(result.exitCode, `codex exec failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
        const main = mock.mainRequests().slice(earlier);
        const sent = main.map((request) => lastInputText(request));
        const prompts = sent.map((text) => HOOK_PROMPT.exec(text));
        const blocked = prompts.flatMap((match, index) => (match ? [index] : []));
        return {
          ...result,
          main,
          sent,
          blocked,
          reports: prompts.flatMap((match) => (match ? [decodeXml(match[2] ?? '')] : [])),
          hookRunIds: prompts.flatMap((match) => (match ? [match[1] ?? ''] : [])),
        };
      },
      hooksFile: () => readFileSync(hooksFile, 'utf8'),
      testGateRan: () => existsSync(join(stateDir, 'logs', 'test.log')),
      sessionFiles: () => (existsSync(join(stateDir, 'sessions')) ? readdirSync(join(stateDir, 'sessions')) : []),
    };
  };
}
