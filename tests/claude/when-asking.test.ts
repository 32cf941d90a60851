// whenAsking on the real Claude Code CLI: a turn that leaves a test red and ends with a question to
// the human, or in plan mode, is let through; the human is told what is red; the stop log says why.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { CLAUDE_CODE_VERSION } from './claude-cli.mjs';
import { SUM_BROKEN, SUM_OK } from './gate-project.mjs';
import { carriesBlock, edit, type Scenario, say, useScenarios } from './scenario.js';

const start = useScenarios();
const QUESTION = 'I changed sum to subtract, as the ticket says.\n\nShould I also migrate the old records?';

const lastStop = (scenario: Scenario) => readStopRecords(join(scenario.project.repo, '.git', 'gate')).at(-1);

/** gate installed by `npx gate init --yes`, with whenAsking set in the committed config. */
async function startWith(whenAsking: string | undefined): Promise<Scenario> {
  const scenario = await start();
  if (whenAsking !== undefined) {
    const config = JSON.parse(scenario.project.read('gate.config.json')) as Record<string, unknown>;
    scenario.project.write('gate.config.json', `${JSON.stringify({ ...config, whenAsking }, null, 2)}\n`);
    scenario.project.commit('whenAsking');
  }
  return scenario;
}

describe(`whenAsking on Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it('"allow": lets a red turn that ends with a question end, tells the human the red gate, and logs why', async () => {
    const scenario = await startWith('allow');
    const run = await scenario.run('Make sum subtract.', [edit('src/sum.ts', SUM_BROKEN), say(QUESTION)], { outputFormat: 'stream-json' });

    // Two model requests: the prompt and the edit's result. No third one: the model was sent no report.
    expect(run.main).toHaveLength(2);
    expect(run.blocked).toEqual([]);
    expect(run.sent[1]).toBe('(Bash completed with no output)');
    expect(carriesBlock(run.sent.join('\n'))).toBe(false);
    expect(run.sent.join('\n')).not.toContain('gate:');
    expect(scenario.mock.unscripted()).toEqual([]);
    expect(run.json?.result).toBe(QUESTION);

    expect(run.notices).toEqual([
      expect.stringMatching(/^Stop says: gate: the agent ended its turn with a question to you, so the stop was let through; still failing: test\. Run "npx gate check"/),
    ]);
    expect(lastStop(scenario)).toMatchObject({ harness: 'claude', outcome: 'allow', path: 'checked', reason: 'asked the human: let through red' });
    expect(lastStop(scenario)?.gates).toContainEqual(expect.objectContaining({ name: 'test', status: 'failed' }));
    expect(scenario.project.read('src/sum.ts')).toBe(SUM_BROKEN);
  });

  it('"allow": still blocks the same red change when the turn ends with a plain "done"', async () => {
    const scenario = await startWith('allow');
    const run = await scenario.run('Refactor sum.', [edit('src/sum.ts', SUM_BROKEN), say('Refactored sum. Done.'), edit('src/sum.ts', SUM_OK), say('Fixed.')]);

    expect(run.main).toHaveLength(4);
    expect(run.blocked).toEqual([2]);
    expect(run.sent[2]).toContain('expected -1 to be 3');
    expect(run.sent[2]).toMatch(/gate: 1 of 2 checks failed \(test\); stop refused, block 1 of 3\./);
    expect(run.json?.result).toBe('Fixed.');
    // The fix put the tree back as the turn found it.
    expect(lastStop(scenario)).toMatchObject({ outcome: 'allow', reason: 'no change' });
  });

  it('the default ("plan-only") gates a question as usual', async () => {
    const scenario = await startWith(undefined);
    const run = await scenario.run('Make sum subtract.', [edit('src/sum.ts', SUM_BROKEN), say(QUESTION), edit('src/sum.ts', SUM_OK), say('Kept sum adding.')]);

    expect(run.main).toHaveLength(4);
    expect(run.blocked).toEqual([2]);
    expect(run.sent[2]).toContain('expected -1 to be 3');
  });

  it('the default ("plan-only") lets a plan-mode stop end red, tells the human the red gate, and logs why', async () => {
    const scenario = await startWith(undefined);
    // In plan mode the agent may not edit (Claude Code denies its Bash and Write): the red change
    // comes from outside it — here a PostToolUse hook that "formats" the file the agent read, standing
    // for an editor or a watcher that wrote while the agent planned.
    scenario.project.write('.git/broken-sum.ts', SUM_BROKEN);
    const formatter = 'cp "$CLAUDE_PROJECT_DIR"/.git/broken-sum.ts "$CLAUDE_PROJECT_DIR"/src/sum.ts';
    const settings = JSON.parse(scenario.project.read('.claude/settings.json')) as { hooks: Record<string, unknown> };
    settings.hooks['PostToolUse'] = [{ matcher: 'Read', hooks: [{ type: 'command', command: formatter }] }];
    scenario.project.write('.claude/settings.json', `${JSON.stringify(settings, null, 2)}\n`);
    scenario.project.commit('a formatter');

    const plan = 'Plan: rename sum to add and update its callers.\n\nShall I go ahead?';
    const run = await scenario.run(
      'Plan how to rename sum.',
      [{ toolUse: { name: 'Read', input: { file_path: join(scenario.project.repo, 'src', 'sum.ts') } } }, say(plan)],
      { outputFormat: 'stream-json', extraArgs: ['--permission-mode', 'plan'] },
    );

    expect(scenario.project.read('src/sum.ts')).toBe(SUM_BROKEN);
    expect(run.main).toHaveLength(2);
    expect(run.blocked).toEqual([]);
    expect(carriesBlock(run.sent.join('\n'))).toBe(false);
    expect(run.json?.result).toBe(plan);
    expect(run.notices).toEqual([expect.stringMatching(/^Stop says: gate: the agent is in plan mode, so the stop was let through; still failing: test\./)]);
    expect(lastStop(scenario)).toMatchObject({ outcome: 'allow', path: 'checked', reason: 'plan mode: let through red' });
  });
});
