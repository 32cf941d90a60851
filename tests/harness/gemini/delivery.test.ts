// Every block reaches Gemini CLI's model once, verbatim, whatever its words (issue 12). Gemini CLI
// reads the hook's stdout as one JSON object (hookRunner.executeCommandHook) and sends the reason as
// the next user message (GeminiClient.sendMessageStream): these are the reports a harness could drop
// or change, sent through the real CLI. docs/harness-gemini.md, "What can drop a block".
import { describe, expect, it } from 'vitest';
import { editStep, say } from '../chat-completions-scenario.js';
import { casesTimeout, DELIVERY_CASES, eachCaseInOneProject, expectDelivered, HEADER, occurrences, manyChineseFailures, onlyTheTestGate, raiseBudget, recordedStops } from '../delivery-cases.js';
import { gemini, GEMINI_VERSION } from './gemini-cli.js';
import { allMessageText } from './mock-gemini.mjs';
import { useGeminiScenarios } from './scenario.js';

const start = useGeminiScenarios();

describe(`every block reaches Gemini CLI ${GEMINI_VERSION}'s model once, verbatim`, () => {
  it('each of DELIVERY_CASES, one turn after another in one project', async () => {
    const scenario = await start([['--harness', 'gemini']]);
    await eachCaseInOneProject(scenario.project, DELIVERY_CASES, async (testCase, since) => {
      const run = await scenario.run('Add a test.', [editStep(gemini, testCase.path, testCase.text), say('Added.'), say('Leaving it.')]);

      // write, stop (blocked), stop again unchanged (let through): three model requests.
      expect(run.main).toHaveLength(3);
      expect(run.blocked).toEqual([2]);
      expect(scenario.mock.unscripted()).toEqual([]);
      const request = run.main[2];
      // Gemini CLI frames nothing: the user message after the model's turn is the report itself.
      const sent = run.sent[2] ?? '';
      expect(sent.search(HEADER), sent.slice(0, 300)).toBe(0);
      expectDelivered(testCase, allMessageText(request), sent, scenario.project.repo, since);
      // Nor is it anywhere else in the request (system instruction, tools).
      expect(occurrences(JSON.stringify(request?.body), HEADER)).toBe(1);

      // The turn ended: gate let the unchanged stop through, and nothing after it reached the model.
      expect(recordedStops(scenario.project.repo).at(-1)).toMatchObject({ event: 'stop', outcome: 'allow' });
      expect(run.stderr).toContain('Hook system message: gate: the agent stopped again without changing anything since it was blocked');
    });
  }, casesTimeout(DELIVERY_CASES.length));
});

// Gemini CLI decodes the hook's stdout chunk by chunk (`data.toString()` per 'data' event), so a
// character whose UTF-8 bytes straddle two pipe reads (64 KiB each) becomes U+FFFD. gate's default
// report (6000 characters) fits one read; `budget` may be raised to 200000. gate prints its JSON as
// ASCII (\uXXXX escapes), which no chunk boundary can split.
describe(`a report longer than one pipe read reaches Gemini CLI ${GEMINI_VERSION}'s model unaltered`, () => {
  it('keeps every character of a 170 KB report in Chinese (budget raised to 200000)', async () => {
    const scenario = await start([['--harness', 'gemini']]);
    onlyTheTestGate(scenario.project);
    raiseBudget(scenario.project, 200_000);
    scenario.project.commit('a larger report');
    const text = manyChineseFailures();
    const run = await scenario.run('Add the tests.', [editStep(gemini, 'src/names.test.ts', text), say('Added.'), say('Leaving it.')]);

    expect(run.main).toHaveLength(3);
    expect(run.blocked).toEqual([2]);
    const sent = run.sent[2] ?? '';
    const [block] = recordedStops(scenario.project.repo).filter((stop) => stop.outcome === 'block');
    expect(Buffer.byteLength(sent)).toBeGreaterThan(2 * 65_536);
    expect(sent.search(HEADER)).toBe(0);
    expect(occurrences(sent, '\uFFFD'), 'characters broken at a chunk boundary').toBe(0);
    expect(sent.trimEnd().length).toBe((block?.reportChars ?? 0) - 1);
  });
});
