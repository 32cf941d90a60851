// The end-to-end scenarios every Chat Completions harness passes: gate installed by `gate init
// --harness NAME --yes` from the packed tarball, the real CLI, the mock playing the agent.
import { expect, it } from 'vitest';
import { SUM_BROKEN, SUM_OK, SUM_TEST_ASSERTION_LINE } from '../claude/gate-project.mjs';
import { editStep, REPORT_HEADER, say, stillBroken, type AgentCli, type Install, type Scenario } from './chat-completions-scenario.js';
import { onlyTheTestGate } from './delivery-cases.js';

const BUDGET = 6000;
/** Two CLI turns in one test, each within the harness tier's 300 s. */
const TWO_TURNS_TIMEOUT_MS = 2 * 300_000;

/** The report as the agent read it: from gate's header line on (a harness may put text before it). */
export function reportIn(sent: string): string {
  const at = sent.search(REPORT_HEADER);
  return at < 0 ? '' : sent.slice(at);
}

export function stopGateScenarios(cli: AgentCli, start: (install: Install, options?: { spacedPath?: boolean }) => Promise<Scenario>, install: Install): void {
  // One project for two turns (a fresh CLI process each): the question-only turn, then the break and
  // the fix, under a folder whose name has a space (hook commands must quote paths). The fix leaves
  // the tree as committed, as the first turn found it.
  it('ends a turn that changed nothing after one model request and adds nothing to the prompt; sends the report when a turn breaks a test and lets it end once fixed; in a repository whose path has a space', async () => {
    const scenario = await start(install, { spacedPath: true });
    expect(scenario.project.repo).toContain(' ');
    const question = await scenario.run('What does this project do?', [say('It adds numbers.')]);

    expect(question.main).toHaveLength(1);
    expect(question.blocked).toEqual([]);
    expect(scenario.mock.unscripted()).toEqual([]);
    expect(question.sent[0]).toContain('What does this project do?');
    expect(question.sent[0]).not.toMatch(/gate:/);
    expect(scenario.testGateRan()).toBe(false);

    const run = await scenario.run('Refactor sum.', [editStep(cli, 'src/sum.ts', SUM_BROKEN), say('Refactored.'), editStep(cli, 'src/sum.ts', SUM_OK), say('Fixed.')]);

    // break, stop (blocked), fix, stop (allowed): four model requests, the third carries the report.
    expect(run.main).toHaveLength(4);
    expect(run.blocked).toEqual([2]);
    expect(scenario.mock.unscripted()).toEqual([]);
    const report = reportIn(run.sent[2] ?? '');
    expect(report).toMatch(/^gate: 1 of 2 checks failed \(test\); stop refused, block 1 of 3\.\n/);
    expect(report).toContain('## test: failed (exit 1)');
    expect(report).toContain('sum > adds two numbers');
    expect(report).toContain('expected -1 to be 3');
    expect(report).toMatch(/^- 3$/m);
    expect(report).toMatch(/^\+ -1$/m);
    expect(report).toContain(`src/sum.test.ts:${SUM_TEST_ASSERTION_LINE}:`);
    expect(report).toMatch(/Do not skip, delete or weaken tests or checks unless the user asked for it\.\n?$/);
    expect(report).not.toContain('\x1b');
    expect(report.length).toBeLessThanOrEqual(BUDGET + 1);
    // One copy of the report.
    expect((run.sent[2] ?? '').split('expected -1 to be 3')).toHaveLength(2);
    expect(run.sent[3]).not.toMatch(REPORT_HEADER);
    expect(scenario.project.read('src/sum.ts')).toBe(SUM_OK);
  }, TWO_TURNS_TIMEOUT_MS);

  it('blocks exactly maxBlocks (3) times while the agent keeps editing and stays red, then lets the turn end', async () => {
    const scenario = await start(install);
    onlyTheTestGate(scenario.project);
    const steps = [0, 1, 2, 3].flatMap((k) => [editStep(cli, 'src/sum.ts', stillBroken(SUM_BROKEN, k)), say(`Attempt ${k + 1}.`)]);
    const run = await scenario.run('Refactor sum.', steps);

    // Four stops: three blocked (each one request with the report), the fourth let through.
    expect(run.main).toHaveLength(8);
    expect(run.blocked).toEqual([2, 4, 6]);
    expect(run.blocked.map((index) => REPORT_HEADER.exec(run.sent[index] ?? '')?.[1])).toEqual(['1', '2', '3']);
    expect(scenario.mock.unscripted()).toEqual([]);
    expect(run.sent.join('\n')).not.toContain('let the turn end');
  });
}
