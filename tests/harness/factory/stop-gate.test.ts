// gate, installed from its npm tarball with `npx gate init --harness factory --yes`, as the Stop hook
// of the real Factory Droid CLI (`droid exec` with a custom model). The mock model plays the agent.
import { describe, expect, it } from 'vitest';
import { SUM_BROKEN } from '../../claude/gate-project.mjs';
import { editStep, say, useChatScenarios } from '../chat-completions-scenario.js';
import { stopGateScenarios } from '../stop-gate-scenarios.js';
import { droid, FACTORY_VERSION } from './droid-cli.js';

const start = useChatScenarios(droid);

describe(`gate as the Stop hook of Factory Droid ${FACTORY_VERSION} (team install)`, () => {
  stopGateScenarios(droid, start, [['--harness', 'factory']]);
});

describe(`gate as the Stop hook of Factory Droid ${FACTORY_VERSION}: what init writes, and the turn's baseline`, () => {
  it('writes flat .factory/hooks.json with the project variable; does not block a question-only turn in a repository left red before the turn (the baseline comes from SessionStart)', async () => {
    const scenario = await start([['--harness', 'factory']]);
    const hooks = JSON.parse(scenario.project.read('.factory/hooks.json')) as Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>>;
    expect(Object.keys(hooks)).toEqual(['Stop', 'UserPromptSubmit', 'SessionStart']);
    expect(hooks['Stop']?.[0]?.hooks[0]?.command).toBe('"$FACTORY_PROJECT_DIR"/node_modules/.bin/gate run --harness factory');

    scenario.project.write('src/sum.ts', SUM_BROKEN);
    const run = await scenario.run('What does sum do?', [say('It subtracts b from a.')]);
    expect(run.main).toHaveLength(1);
    expect(run.blocked).toEqual([]);
    expect(scenario.sessionFiles()).toHaveLength(1);
    expect(scenario.testGateRan()).toBe(false);
  });
});

describe(`gate as the Stop hook of Factory Droid ${FACTORY_VERSION} (personal install at user level)`, () => {
  it('blocks from ~/.factory/hooks.json and leaves the repository untouched', async () => {
    const scenario = await start([['--harness', 'factory', '--personal']]);
    expect(scenario.project.exists('.factory/hooks.json')).toBe(false);
    const run = await scenario.run('Refactor sum.', [editStep(droid, 'src/sum.ts', SUM_BROKEN), say('Refactored.'), say('Leaving it.')]);
    expect(run.blocked).toEqual([2]);
  });
});
