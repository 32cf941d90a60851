// One scenario = a fresh copy of the packed-gate template project as a git repo, gate installed with
// the real `npx gate init --harness gemini --yes`, mock-gemini.mjs scripted, and one real
// `gemini -p` run in the repo. The shape is chat-completions-scenario.ts's, so the shared
// scenarios (../stop-gate-scenarios.ts) run on it.
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { checkBuild, makeProject, prepareTemplate, type GateProject, type Template } from '../../claude/gate-project.mjs';
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

/** Packs gate and installs the template once per test file; returns a function that starts a scenario. */
export function useGeminiScenarios(): (install: Install, options?: { spacedPath?: boolean }) => Promise<GeminiScenario> {
  let template: Template | undefined;
  const open: Array<{ project: GateProject; mock: GeminiMock; extra: string | undefined }> = [];
  beforeAll(() => {
    const warning = checkBuild();
    if (warning) console.warn(`[gemini] warning: ${warning}`);
    template = prepareTemplate();
  }, 180_000);
  afterAll(() => {
    if (template) rmSync(template.base, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const { project, mock, extra } of open.splice(0)) {
      await mock.close();
      project.cleanup();
      if (extra) rmSync(extra, { recursive: true, force: true });
    }
  });

  return async (install, options = {}) => {
    if (!template) throw new Error('the template project was not prepared');
    // Gemini CLI substitutes $GEMINI_PROJECT_DIR into the command itself: a path with a space tests that.
    const templateDir = template.dir;
    const extra = options.spacedPath ? realpathSync(mkdtempSync(join(tmpdir(), 'stopgate gemini '))) : undefined;
    const project = withTmpdir(extra, () => makeProject(templateDir));
    const mock = await startGeminiMock();
    open.push({ project, mock, extra });
    gemini.prepareHome(project.home, project.repo, mock);
    const inits = install.map((args) => {
      const init = project.gate('init', ...args, '--yes');
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
        const command = gemini.command(prompt, project.home, mock);
        const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: project.home, ...project.env, ...command.env };
        const result = await runProcess({ ...command, env, cwd: project.repo }, runOptions.timeoutMs ?? 180_000);
        expect(result.exitCode, `${gemini.label} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
        const main = mock.mainRequests();
        const sent = main.map((request) => lastUserText(request));
        const blocked = sent.flatMap((text, index) => (REPORT_HEADER.test(text) ? [index] : []));
        return { ...result, main, sent, blocked, result: parseResult(result.stdout) };
      },
      testGateRan: () => existsSync(join(stateDir, 'logs', 'test.log')),
      sessionFiles: () => (existsSync(join(stateDir, 'sessions')) ? readdirSync(join(stateDir, 'sessions')).filter((name) => name.endsWith('.json')) : []),
    };
  };
}

/** makeProject makes its folder under os.tmpdir(), which follows TMPDIR. */
function withTmpdir<T>(dir: string | undefined, make: () => T): T {
  if (dir === undefined) return make();
  const saved = process.env['TMPDIR'];
  process.env['TMPDIR'] = dir;
  try {
    return make();
  } finally {
    if (saved === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = saved;
  }
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
