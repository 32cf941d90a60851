// gate, installed from its npm tarball, under the real GitHub Copilot CLI (`copilot -p` with a custom
// provider): as Copilot's own agentStop hook (`gate init --harness copilot`), as a Claude Code install
// that Copilot also runs (`gate init`), and both at once. The mock model plays the agent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUM_BROKEN, SUM_OK } from '../../claude/gate-project.mjs';
import { editStep, say, stillBroken, useChatScenarios, type Scenario } from '../chat-completions-scenario.js';
import { onlyTheTestGate } from '../delivery-cases.js';
import { stopGateScenarios } from '../stop-gate-scenarios.js';
import { COPILOT_VERSION, copilot } from './copilot-cli.js';

const start = useChatScenarios(copilot);
const NATIVE = ['--harness', 'copilot'];
const CLAUDE: string[] = [];
/** Two CLI turns in one test, each within the harness tier's 300 s. */
const TWO_TURNS_TIMEOUT_MS = 2 * 300_000;

/**
 * Makes the test gate log each run with the gate process that ran it (a personal override,
 * committed with the rest); returns how many gate processes ran the suite. One stop is one gate
 * process, which may run the suite more than once itself (retries, a run on the baseline).
 */
function countSuiteProcesses(scenario: Scenario): () => number {
  const log = join(scenario.project.repo, '.git', 'test-runs');
  const run = ['sh', '-c', `echo "$PPID" >> "${log}"; exec npx vitest run --reporter=default`];
  scenario.project.write('gate.local.json', `${JSON.stringify({ gates: [{ name: 'test', run }] }, null, 2)}\n`);
  scenario.project.commit('count test runs');
  return () => {
    try {
      return new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean)).size;
    } catch {
      return 0;
    }
  };
}

describe(`gate as the agentStop hook of Copilot CLI ${COPILOT_VERSION} (team install)`, () => {
  stopGateScenarios(copilot, start, [NATIVE]);
});

describe(`gate as the agentStop hook of Copilot CLI ${COPILOT_VERSION}: what init writes, and the turn's baseline`, () => {
  it('writes .github/hooks/gate.json with the project variable and JSON-only blocking; does not block a question-only turn in a repository left red before the turn', async () => {
    const scenario = await start([NATIVE]);
    const file = JSON.parse(scenario.project.read('.github/hooks/gate.json')) as { version: number; hooks: Record<string, Array<{ bash: string; timeoutSec: number }>> };
    expect(file.version).toBe(1);
    expect(file.hooks['agentStop']?.[0]?.bash).toBe('"$COPILOT_PROJECT_DIR"/node_modules/.bin/gate run --harness copilot --event agentStop');
    expect(file.hooks['userPromptSubmitted']?.[0]?.bash).toBe('"$COPILOT_PROJECT_DIR"/node_modules/.bin/gate run --harness copilot --event userPromptSubmitted');
    expect(file.hooks['userPromptSubmitted']?.[0]?.timeoutSec).toBe(30);
    expect(scenario.inits[0]?.stdout).toContain('trust');

    scenario.project.write('src/sum.ts', SUM_BROKEN);
    const run = await scenario.run('What does sum do?', [say('It subtracts b from a.')]);
    expect(run.main).toHaveLength(1);
    expect(run.blocked).toEqual([]);
    expect(scenario.sessionFiles()).toHaveLength(1);
    expect(scenario.testGateRan()).toBe(false);
  });
});

describe(`gate installed only for Claude Code, run by Copilot CLI ${COPILOT_VERSION} from .claude/settings.json`, () => {
  stopGateScenarios(copilot, start, [CLAUDE]);
});

describe(`gate installed for both Claude Code and Copilot CLI ${COPILOT_VERSION}`, () => {
  // Copilot runs both hooks for every stop, one after the other (not at once), with the same
  // session id under two keys (sessionId, session_id) and the same timestamp. Two turns in one
  // project: the first ends fixed, with the tree as committed.
  it('sends the report once, runs the suite at most once per stop, and lets the turn end after the fix; then blocks exactly maxBlocks (3) times while the agent stays red, running the suite once per stop', async () => {
    const scenario = await start([CLAUDE, NATIVE]);
    onlyTheTestGate(scenario.project);
    const suiteRuns = countSuiteProcesses(scenario);
    const run = await scenario.run('Refactor sum.', [editStep(copilot, 'src/sum.ts', SUM_BROKEN), say('Refactored.'), editStep(copilot, 'src/sum.ts', SUM_OK), say('Fixed.')]);
    expect(run.main).toHaveLength(4);
    expect(run.blocked).toEqual([2]);
    expect((run.sent[2] ?? '').split('expected -1 to be 3')).toHaveLength(2);
    // At most one gate process per stop (the fixed tree may pass from gate's verdict cache).
    const firstTurn = suiteRuns();
    expect(firstTurn).toBeLessThanOrEqual(2);
    expect(scenario.project.status()).toEqual([]);

    // Copilot runs both copies one after the other with the same timestamp: the second copy of an
    // answered stop gets no second answer (answeredAt in the session state), so the count holds.
    const steps = [0, 1, 2, 3].flatMap((k) => [editStep(copilot, 'src/sum.ts', stillBroken(SUM_BROKEN, k)), say(`Attempt ${k + 1}.`)]);
    const red = await scenario.run('Refactor sum.', steps);
    expect(red.main).toHaveLength(8);
    expect(red.blocked).toEqual([2, 4, 6]);
    expect(scenario.mock.unscripted()).toEqual([]);
    expect(suiteRuns() - firstTurn).toBe(4);
  }, TWO_TURNS_TIMEOUT_MS);
});

describe(`gate as the agentStop hook of Copilot CLI ${COPILOT_VERSION} (personal install)`, () => {
  it('blocks from .github/copilot/settings.local.json, which is gitignored', async () => {
    const scenario = await start([[...NATIVE, '--personal']]);
    expect(scenario.project.read('.gitignore')).toContain('.github/copilot/settings.local.json');
    expect(scenario.project.status()).toEqual([]);
    const run = await scenario.run('Refactor sum.', [editStep(copilot, 'src/sum.ts', stillBroken(SUM_BROKEN, 0)), say('Refactored.'), say('Leaving it.')]);
    expect(run.blocked).toEqual([2]);
  });
});
