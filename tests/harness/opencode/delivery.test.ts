// Every block reaches OpenCode's model once, verbatim, whatever its words (issue 12). gate's plugin
// reads gate's one JSON object and sends the report with client.session.promptAsync; OpenCode stores
// it as a user text part and passes it to the model unchanged (MessageV2.toModelMessages): these are
// the reports a harness could drop or change, sent through a real `opencode serve`.
// docs/harness-opencode.md, "What can drop a block".
import { describe, expect, it } from 'vitest';
import { allMessageText } from '../chat-completions-mock.mjs';
import { editStep, say } from '../chat-completions-scenario.js';
import { casesTimeout, DELIVERY_CASES, eachCaseInOneProject, expectDelivered, HEADER, occurrences, manyChineseFailures, raiseBudget, recordedStops, stopCount } from '../delivery-cases.js';
import { OPENCODE_VERSION } from './opencode-cli.js';
import { opencode, STOP_ALLOWED, useOpencodeScenarios } from './scenario.js';

const start = useOpencodeScenarios();

// gate's stdout reaches the plugin in several pipe reads once it passes 64 KiB (`budget` may be
// raised to 200000); the plugin decodes with a string decoder, so no character is split. That case
// runs last, in the same project and server as the others (a server of its own took 10-20 s to
// start at CI's load).
describe(`every block reaches OpenCode ${OPENCODE_VERSION}'s model once, verbatim, and a report longer than one pipe read unaltered`, () => {
  it('each of DELIVERY_CASES, then a 170 KB report in Chinese (budget raised to 200000), one session after another in one project and one server', async () => {
    const scenario = await start([['--harness', 'opencode']], { oneServer: true });
    await eachCaseInOneProject(scenario.project, DELIVERY_CASES, async (testCase, since) => {
      const run = await scenario.run('Add a test.', [editStep(opencode, testCase.path, testCase.text), say('Added.'), say('Leaving it.')]);

      // write, stop (blocked), stop again unchanged (let through): three model requests.
      expect(run.main).toHaveLength(3);
      expect(run.blocked).toEqual([2]);
      expect(scenario.mock.unscripted()).toEqual([]);
      const request = run.main[2];
      // The plugin's message is the report itself: nothing before it, and (expectDelivered) nothing after it.
      const sent = run.sent[2] ?? '';
      expect(sent.search(HEADER), sent.slice(0, 300)).toBe(0);
      expectDelivered(testCase, allMessageText(request), sent, scenario.project.repo, since);
      expect(occurrences(JSON.stringify(request?.body), HEADER)).toBe(1);

      // The turn ended: one report sent, then the unchanged stop let through with a notice for the human.
      expect(occurrences(run.stderr, /message="gate: stop refused, report sent \(1 of 3\)"/)).toBe(1);
      expect(occurrences(run.stderr, STOP_ALLOWED)).toBe(1);
      expect(run.notices).toEqual([expect.stringMatching(/^gate: the agent stopped again without changing anything since it was blocked/)]);
      expect(recordedStops(scenario.project.repo).at(-1)).toMatchObject({ event: 'stop', outcome: 'allow' });
    });

    // The test gate only (eachCaseInOneProject kept it), the budget raised, committed.
    raiseBudget(scenario.project, 200_000);
    scenario.project.commit('a larger report');
    const since = stopCount(scenario.project.repo);
    const text = manyChineseFailures();
    const run = await scenario.run('Add the tests.', [editStep(opencode, 'src/names.test.ts', text), say('Added.'), say('Leaving it.')]);

    expect(run.main).toHaveLength(3);
    expect(run.blocked).toEqual([2]);
    const sent = run.sent[2] ?? '';
    const [block] = recordedStops(scenario.project.repo).slice(since).filter((stop) => stop.outcome === 'block');
    expect(Buffer.byteLength(sent)).toBeGreaterThan(2 * 65_536);
    expect(sent.search(HEADER)).toBe(0);
    expect(occurrences(sent, '\uFFFD'), 'characters broken at a chunk boundary').toBe(0);
    expect(sent.trimEnd().length).toBe((block?.reportChars ?? 0) - 1);
  }, casesTimeout(DELIVERY_CASES.length + 1));
});
