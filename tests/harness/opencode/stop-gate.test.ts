// gate's generated plugin (`npx gate init --harness opencode --yes`, from the packed tarball) under a
// real `opencode serve`: OpenCode can't veto a stop, so the plugin sends gate's report as the next
// user message when the session goes idle. The mock model plays the agent.
import { describe, expect, it } from 'vitest';
import { SUM_BROKEN } from '../../claude/gate-project.mjs';
import { editStep, say } from '../chat-completions-scenario.js';
import { stopGateScenarios } from '../stop-gate-scenarios.js';
import { OPENCODE_VERSION } from './opencode-cli.js';
import { opencode, useOpencodeScenarios } from './scenario.js';

const start = useOpencodeScenarios();
const TEAM = [['--harness', 'opencode']];

describe(`gate as a plugin of OpenCode ${OPENCODE_VERSION} (opencode serve, team install)`, () => {
  // A scenario's turns are sessions of one server, as a user's are: a server takes 3 s to start and
  // answer its first prompt when the machine is idle (15-20 s at CI's load), its next session 0.6 s.
  stopGateScenarios(opencode, (install, options) => start(install, { ...options, oneServer: true }), TEAM);

  it('takes the baseline at chat.message: a question in a repo whose tests were already red is not blocked', async () => {
    const scenario = await start(TEAM);
    expect(scenario.project.status()).toEqual([]);
    scenario.project.write('src/sum.ts', SUM_BROKEN);
    const run = await scenario.run('What does sum do?', [say('It subtracts b from a, despite its name.')]);
    expect(run.main).toHaveLength(1);
    expect(run.blocked).toEqual([]);
    expect(scenario.sessionFiles()).toEqual([`${run.sessionId}.json`]);
    expect(scenario.testGateRan()).toBe(false);
  });
});

describe(`gate as a plugin of OpenCode ${OPENCODE_VERSION} (personal install)`, () => {
  it('blocks from a gitignored .opencode/plugin/gate.local.js, and tells the human, not the model, when the agent stops again unchanged', async () => {
    const scenario = await start([['--harness', 'opencode', '--personal']]);
    expect(scenario.project.exists('.opencode/plugin/gate.local.js')).toBe(true);
    expect(scenario.project.git('ls-files', '.opencode')).toBe('');
    const run = await scenario.run('Refactor sum.', [editStep(opencode, 'src/sum.ts', SUM_BROKEN), say('Refactored.'), say('Leaving it.')]);
    expect(run.main).toHaveLength(3);
    expect(run.blocked).toEqual([2]);
    expect(run.notices).toEqual([expect.stringMatching(/^gate: the agent stopped again without changing anything since it was blocked/)]);
    expect(run.sent.join('\n')).not.toContain('without changing anything');
    expect(scenario.project.status()).toEqual([' M src/sum.ts']);
  });
});
