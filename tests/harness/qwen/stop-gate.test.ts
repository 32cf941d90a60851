// gate, installed from its npm tarball with `npx gate init --harness qwen --yes`, as the Stop hook of
// the real Qwen Code CLI (headless `qwen -p`). The mock model plays the agent.
import { describe, expect, it } from 'vitest';
import { SUM_BROKEN } from '../../claude/gate-project.mjs';
import { editStep, say, useChatScenarios } from '../chat-completions-scenario.js';
import { stopGateScenarios } from '../stop-gate-scenarios.js';
import { QWEN_VERSION, qwen } from './qwen-cli.js';

const start = useChatScenarios(qwen);

describe(`gate as the Stop hook of Qwen Code ${QWEN_VERSION} (team install)`, () => {
  stopGateScenarios(qwen, start, [['--harness', 'qwen']]);

  it('writes its hooks into .qwen/settings.json with the project variable, and keeps the turn baseline across tool calls', async () => {
    const scenario = await start([['--harness', 'qwen']]);
    const settings = JSON.parse(scenario.project.read('.qwen/settings.json')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>> };
    expect(settings.hooks['Stop']?.[0]?.hooks[0]?.command).toBe('"$QWEN_PROJECT_DIR"/node_modules/.bin/gate run --harness qwen');
    expect(settings.hooks['UserPromptSubmit']?.[0]?.hooks[0]?.timeout).toBe(30);
    // Broken, then the turn stops without touching anything again: blocked once, then let through.
    const run = await scenario.run('Refactor sum.', [editStep(qwen, 'src/sum.ts', SUM_BROKEN), say('Refactored.'), say('Leaving it.')]);
    expect(run.main).toHaveLength(3);
    expect(run.blocked).toEqual([2]);
    expect(run.stderr).toContain('without changing anything since it was blocked');
  });
});

describe(`gate as the Stop hook of Qwen Code ${QWEN_VERSION}: the turn's baseline`, () => {
  it('does not block a question-only turn in a repository left red before the turn', async () => {
    const scenario = await start([['--harness', 'qwen']]);
    scenario.project.write('src/sum.ts', SUM_BROKEN);
    const run = await scenario.run('What does sum do?', [say('It subtracts b from a.')]);
    expect(run.main).toHaveLength(1);
    expect(run.blocked).toEqual([]);
    expect(scenario.sessionFiles()).toHaveLength(1);
    expect(scenario.testGateRan()).toBe(false);
  });
});

describe(`gate as the Stop hook of Qwen Code ${QWEN_VERSION} (personal install at user level)`, () => {
  it('blocks from ~/.qwen/settings.json and leaves the repository untouched', async () => {
    const scenario = await start([['--harness', 'qwen', '--personal']]);
    expect(scenario.project.exists('.qwen/settings.json')).toBe(false);
    const run = await scenario.run('Refactor sum.', [editStep(qwen, 'src/sum.ts', SUM_BROKEN), say('Refactored.'), say('Leaving it.')]);
    expect(run.blocked).toEqual([2]);
  });
});
