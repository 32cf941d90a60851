// gate under the real Claude Code CLI: the personal install, and gate's own troubles (a broken
// config, a hanging test) never trapping the agent.
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION } from './claude-cli.mjs';
import { processesIn, SUM_BROKEN, SUM_OK } from './gate-project.mjs';
import { contextIn, edit, say, useScenarios } from './scenario.js';

const start = useScenarios();

describe(`gate init --personal under Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it('blocks a broken edit like the team install, touching only ignored files and .gitignore', async () => {
    const scenario = await start('personal');
    const { project } = scenario;
    expect(project.exists('gate.local.json')).toBe(true);
    expect(project.exists('.claude/settings.local.json')).toBe(true);
    expect(project.exists('gate.config.json')).toBe(false);
    expect(project.exists('.claude/settings.json')).toBe(false);
    // What init says it did: "These files are yours alone (gitignored)" — git sees only .gitignore.
    expect(scenario.init?.stdout).toContain('These files are yours alone (gitignored)');
    expect(project.status()).toEqual([' M .gitignore']);
    expect(project.read('.gitignore').split('\n')).toEqual(expect.arrayContaining(['gate.local.json', '.claude/settings.local.json']));

    const run = await scenario.run('Refactor sum.', [
      edit('src/sum.ts', SUM_BROKEN),
      say('Refactored.'),
      edit('src/sum.ts', SUM_OK),
      say('Fixed.'),
    ]);
    expect(run.main).toHaveLength(4);
    expect(run.blocked).toEqual([2]);
    const command = scenario.hookCommand('.claude/settings.local.json');
    expect(command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run');
    expect(contextIn(run.sent[2] ?? '')).toMatch(/^gate: 1 of 2 checks failed \(test\); stop refused, block 1 of 3\.\n/);
    expect(run.sent[2]).toContain('expected -1 to be 3');
    expect(run.json?.result).toBe('Fixed.');
    expect(project.exists('.claude/settings.json')).toBe(false);
    expect(project.status()).toEqual([' M .gitignore']);
  });
});

describe(`gate never traps Claude Code ${CLAUDE_CODE_VERSION} on its own troubles`, () => {
  it.each([
    ['invalid JSON', '{\n  "gates": [\n    { "name": "test", "preset": "vitest" },\n', /gate\.config\.json/],
    ['a wrong type', '{ "gates": [{ "name": "test", "preset": "vitest", "timeout": "60s" }] }\n', /gate\.config\.json: gates\[0\]\.timeout: expected a number, got "60s"/],
  ] as const)('ends the turn normally when gate.config.json has %s, even with a broken test', async (_what, config, problem) => {
    const scenario = await start();
    scenario.project.write('gate.config.json', config);
    scenario.project.commit('Edit the gate config by hand');
    const run = await scenario.run('Refactor sum.', [edit('src/sum.ts', SUM_BROKEN), say('Refactored.')], { outputFormat: 'stream-json' });

    // One stop, allowed: the tool call's request and the final one, no feedback.
    expect(run.main).toHaveLength(2);
    expect(run.blocked).toEqual([]);
    expect(run.json?.result).toBe('Refactored.');
    expect(scenario.mock.unscripted()).toEqual([]);
    expect(scenario.testGateRan()).toBe(false);
    // The human is told what is wrong and where; the model is not.
    expect(run.notices).toEqual([expect.stringMatching(/config is invalid/)]);
    expect(run.notices[0]).toMatch(problem);
    expect(run.sent.join('\n')).not.toMatch(/config is invalid/);
  });

  it('kills a hanging test at the gate timeout, ends the turn, and leaves nothing running', async () => {
    const scenario = await start();
    const config = JSON.parse(scenario.project.read('gate.config.json')) as { gates: Array<Record<string, unknown>> };
    const test = config.gates.find((gate) => gate.name === 'test');
    if (!test) throw new Error('gate init wrote no "test" gate');
    test.timeout = 5;
    scenario.project.write('gate.config.json', `${JSON.stringify(config, null, 2)}\n`);
    scenario.project.commit('Shorter test timeout');

    const run = await scenario.run('Add a test.', [
      edit('src/hang.test.ts', "import { it } from 'vitest';\n\nit('hangs', () => {\n  for (;;) {}\n});\n"),
      say('Added a test.'),
      say('Nothing hangs.'),
    ], { outputFormat: 'stream-json' });

    // The first timeout blocks (the turn may have made the test hang); a stop with nothing changed since ends the turn.
    expect(run.main).toHaveLength(3);
    expect(run.blocked).toEqual([2]);
    expect(contextIn(run.sent[2] ?? '')).toMatch(/^gate: 1 of \d checks failed \(test\); stop refused, block 1 of 3\.\n/);
    expect(run.sent[2]).toContain('It did not finish within its timeout of 5 s');
    expect(run.json?.result).toBe('Nothing hangs.');
    expect(run.notices).toEqual([expect.stringMatching(/refused the stop \(block 1 of 3\): test failed/), expect.stringMatching(/without changing anything since it was blocked/)]);
    expect(run.durationMs).toBeGreaterThanOrEqual(5_000);
    expect(run.durationMs).toBeLessThan(30_000);
    expect(processesIn(scenario.project.root)).toEqual([]);
  });
});
