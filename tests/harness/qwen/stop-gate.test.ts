// gate, installed from its npm tarball with `npx gate init --harness qwen --yes`, as the Stop hook of
// the real Qwen Code CLI (headless `qwen -p`). The mock model plays the agent.
import { describe, expect, it } from 'vitest';
import { SUM_BROKEN } from '../../claude/gate-project.mjs';
import { editStep, say, stillBroken, useChatScenarios } from '../chat-completions-scenario.js';
import { onlyTheTestGate } from '../delivery-cases.js';
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

// Qwen Code's own cap (stopHookBlockingCap, 8 by default): it counts a block before sending it and
// ends the turn when the count reaches the cap, so only cap − 1 blocks reach the model. gate doctor
// refuses a maxBlocks past that (src/doctor/check-host-cap.ts).
describe(`Qwen Code ${QWEN_VERSION}'s own block cap`, () => {
  it('sends the model cap − 1 reports: with stopHookBlockingCap 2, gate\'s second block ends the turn unsent', async () => {
    const scenario = await start([['--harness', 'qwen']]);
    onlyTheTestGate(scenario.project);
    const settings = JSON.parse(scenario.project.read('.qwen/settings.json')) as Record<string, unknown>;
    scenario.project.write('.qwen/settings.json', JSON.stringify({ ...settings, stopHookBlockingCap: 2 }, null, 2));
    const steps = [0, 1].flatMap((k) => [editStep(qwen, 'src/sum.ts', stillBroken(SUM_BROKEN, k)), say(`Attempt ${k + 1}.`)]);
    const run = await scenario.run('Refactor sum.', steps);
    expect(run.main).toHaveLength(4);
    expect(run.blocked).toEqual([2]);
    expect(`${run.stdout}${run.stderr}`).toContain('Stop hook blocked continuation 2 consecutive times; overriding and ending the turn.');
    const doctor = scenario.project.gate('doctor', '--harness', 'qwen');
    expect(doctor.stdout).toMatch(/✖ maxBlocks is 3, but Qwen Code ends the turn instead of sending block 2 in a row .*only 1 of gate's blocks reach the agent/);
  });
});
