// Every block reaches the model, whatever its words (issue 12): Claude Code takes an exit-2 stop hook
// with empty stdout whose stderr says "no such file" or "can't open" for a missing script and lets
// the turn end. These are the reports that would have been dropped, sent through the real CLI.
import { describe, expect, it } from 'vitest';
import { casesTimeout, chineseReportCase, DELIVERY_CASES, eachCaseInOneProject, expectDelivered, HEADER, occurrences, raiseBudget, recordedStops } from '../harness/delivery-cases.js';
import { CLAUDE_CODE_VERSION } from './claude-cli.mjs';
import { allMessageText } from './mock-anthropic.mjs';
import { CONTEXT, contextIn, edit, FEEDBACK, feedbackIn, say, useScenarios } from './scenario.js';

const start = useScenarios();

describe(`every block reaches Claude Code ${CLAUDE_CODE_VERSION}'s model once, verbatim`, () => {
  it('each of DELIVERY_CASES, one turn after another in one project', async () => {
    const scenario = await start();
    await eachCaseInOneProject(scenario.project, DELIVERY_CASES, async (testCase, since) => {
      const run = await scenario.run('Add a test.', [edit(testCase.path, testCase.text), say('Added.'), say('Leaving it.')], { outputFormat: 'stream-json' });

      // write, stop (blocked), stop again unchanged (let through): three model requests.
      expect(run.main).toHaveLength(3);
      expect(run.blocked).toEqual([2]);
      expect(run.json?.result).toBe('Leaving it.');
      const sent = run.sent[2] ?? '';
      // The report is the hook's additionalContext (exit 0), not exit-2 feedback: see docs/stop-contract.md.
      const report = contextIn(sent);
      expect(report, sent.slice(0, 400)).toBeDefined();
      expectDelivered(testCase, allMessageText(run.main[2]), report ?? '', scenario.project.repo, since);
      // The person watching is told too, and the model is not: the systemMessage goes to the human only.
      const failing = /checks failed \(([^)]*)\)/.exec(sent)?.[1];
      expect(run.notices[0]).toBe(`Stop says: gate: refused the stop (block 1 of 3): ${failing} failed; the agent has the report.`);
      expect(run.sent.join('\n')).not.toContain('refused the stop (block');
      // … and is not shown "stop hook problem", as every first exit-2 block shows.
      expect(run.notifications).not.toContain('stop-hook-error');
    });
  }, casesTimeout(DELIVERY_CASES.length));

  it('sends a report too long to pass whole as additionalContext by exit 2, whole and once', async () => {
    const scenario = await start();
    const testCase = chineseReportCase(20_000);
    raiseBudget(scenario.project, 20_000);
    scenario.project.commit('a larger report budget');
    const run = await scenario.run('Add a test.', [edit(testCase.path, testCase.text), say('Added.'), say('Leaving it.')], { outputFormat: 'stream-json' });

    expect(run.blocked).toEqual([2]);
    const sent = run.sent[2] ?? '';
    expect(sent).not.toContain(CONTEXT);
    const report = feedbackIn(sent, scenario.hookCommand());
    expect(report, sent.slice(0, 400)).toBeDefined();
    expect(occurrences(allMessageText(run.main[2]), HEADER)).toBe(1);
    for (const text of testCase.mustReach) expect(occurrences(report ?? '', text)).toBe(1);
    const [block] = recordedStops(scenario.project.repo).filter((stop) => stop.outcome === 'block');
    expect(block?.reportChars).toBeGreaterThan(15_000);
    expect(report?.trimEnd().length).toBe((block?.reportChars ?? 0) - 1);
    expect(occurrences(sent, FEEDBACK)).toBe(1);
    // The price of exit 2: Claude Code shows the human "stop hook problem" beside gate's line.
    expect(run.notifications).toContain('stop-hook-error');
    expect(run.notices[0]).toMatch(/^Stop says: gate: refused the stop \(block 1 of 3\)/);
  });
});

describe(`a SubagentStop block reaches the subagent of Claude Code ${CLAUDE_CODE_VERSION} (subagents: true)`, () => {
  it('sends the subagent a report that says "no such file or directory", once', async () => {
    const scenario = await start();
    scenario.project.write('gate.config.json', `${JSON.stringify({ ...JSON.parse(scenario.project.read('gate.config.json')), subagents: true }, null, 2)}\n`);
    // Turning subagents on and running init again adds the SubagentStop hook.
    const init = scenario.project.gate('init', '--no-check', '--yes');
    expect(init.code, init.stderr).toBe(0);
    const settings = JSON.parse(scenario.project.read('.claude/settings.json')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    expect(settings.hooks['SubagentStop']?.[0]?.hooks[0]?.command).toBe(scenario.hookCommand());
    scenario.project.commit('gate subagents too');
    const [enoent] = DELIVERY_CASES;
    if (!enoent) throw new Error('no delivery case');
    scenario.mock.scriptSubagent([edit(enoent.path, enoent.text), say('Added.'), say('Leaving it.')]);
    const run = await scenario.run('Have a subagent add a test.', [
      { toolUse: { name: 'Agent', input: { description: 'Add a test', prompt: 'Add the config test.', subagent_type: 'general-purpose', run_in_background: false } } },
      say('The subagent is done.'),
      say('Leaving it.'),
    ], { timeoutMs: 240_000 });

    const subagent = scenario.mock.requests.filter((request) => request.subagent);
    const fed = subagent.filter((request) => allMessageText(request).includes(CONTEXT));
    expect(fed.length).toBeGreaterThanOrEqual(1);
    const sent = allMessageText(fed[0]);
    expect(occurrences(sent, HEADER)).toBe(1);
    for (const text of enoent.mustReach) expect(occurrences(sent, text)).toBe(1);
    expect(run.exitCode).toBe(0);
  });
});
