// gate, installed from its npm tarball with `npx gate init --harness gemini --yes`, as the AfterAgent
// hook of the real Gemini CLI (headless `gemini -p`). mock-gemini.mjs plays the agent.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUM_BROKEN } from '../../claude/gate-project.mjs';
import { editStep, say } from '../chat-completions-scenario.js';
import { stopGateScenarios } from '../stop-gate-scenarios.js';
import { gemini, GEMINI_VERSION } from './gemini-cli.js';
import { useGeminiScenarios } from './scenario.js';

const start = useGeminiScenarios();
const TEAM = [['--harness', 'gemini']];

describe(`gate as the AfterAgent hook of Gemini CLI ${GEMINI_VERSION} (team install)`, () => {
  stopGateScenarios(gemini, start, TEAM);
});

describe(`gate as the AfterAgent hook of Gemini CLI ${GEMINI_VERSION} (where it could go wrong)`, () => {
  it('takes the baseline at BeforeAgent: a question in a repo whose tests were already red is not blocked', async () => {
    const scenario = await start(TEAM);
    scenario.project.write('src/sum.ts', SUM_BROKEN);
    const run = await scenario.run('What does sum do?', [say('It subtracts b from a, despite its name.')]);
    expect(run.main).toHaveLength(1);
    expect(run.blocked).toEqual([]);
    expect(scenario.sessionFiles()).toHaveLength(1);
    expect(scenario.testGateRan()).toBe(false);
  });

  it('runs from a project path with a space in it ($GEMINI_PROJECT_DIR comes substituted and quoted), and tells the human, not the model, about an unchanged stop', async () => {
    const scenario = await start(TEAM, { spacedPath: true });
    expect(scenario.project.repo).toContain(' ');
    const settings = JSON.parse(scenario.project.read('.gemini/settings.json')) as { hooks: Record<string, Array<{ hooks: Array<{ name: string; command: string; timeout: number }> }>> };
    expect(settings.hooks['AfterAgent']?.[0]?.hooks[0]).toEqual({ name: 'gate', type: 'command', command: '$GEMINI_PROJECT_DIR/node_modules/.bin/gate run --harness gemini || exit 1', timeout: expect.any(Number) });
    expect(settings.hooks['AfterAgent']?.[0]?.hooks[0]?.timeout).toBeGreaterThanOrEqual(60_000); // milliseconds
    expect(settings.hooks['BeforeAgent']?.[0]?.hooks[0]?.timeout).toBe(30_000);
    const run = await scenario.run('Refactor sum.', [editStep(gemini, 'src/sum.ts', SUM_BROKEN), say('Refactored.'), say('Leaving it.')]);
    expect(run.main).toHaveLength(3);
    expect(run.blocked).toEqual([2]);
    // gate's notice: Gemini CLI prints it for the human as a hook system message, never to the model.
    expect(run.stderr).toContain('Hook system message: gate: the agent stopped again without changing anything since it was blocked');
    expect(run.sent.join('\n')).not.toContain('without changing anything');
  });

  it('only warns when gate cannot start (a teammate without npm install): the prompt still reaches the model', async () => {
    const scenario = await start(TEAM);
    rmSync(join(scenario.project.repo, 'node_modules', '.bin', 'gate'));
    const run = await scenario.run('What does this project do?', [say('It adds numbers.')]);
    expect(run.main).toHaveLength(1);
    expect(run.result?.response).toBe('It adds numbers.');
    expect(run.stderr).toMatch(/Hook\(s\) \[gate\] failed for event BeforeAgent/);
    expect(run.stderr).toMatch(/Hook\(s\) \[gate\] failed for event AfterAgent/);
  });
});

describe(`gate as the AfterAgent hook of Gemini CLI ${GEMINI_VERSION} (personal install at user level)`, () => {
  it('blocks from ~/.gemini/settings.json, keeps the CLI settings there, and leaves the repository untouched', async () => {
    const scenario = await start([['--harness', 'gemini', '--personal']]);
    expect(scenario.project.exists('.gemini/settings.json')).toBe(false);
    const run = await scenario.run('Refactor sum.', [editStep(gemini, 'src/sum.ts', SUM_BROKEN), say('Refactored.'), say('Leaving it.')]);
    expect(run.blocked).toEqual([2]);
    expect(scenario.project.status()).toEqual([' M src/sum.ts']);
  });
});
