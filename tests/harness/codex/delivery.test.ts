// Every block reaches Codex CLI's model once, verbatim, whatever its words (issue 12). Codex takes an
// exit-2 Stop hook's stderr, trimmed, as the continuation prompt (hooks/src/events/stop.rs), cuts it
// past 10,000 UTF-8 bytes (hooks/src/output_spill.rs) and sends it XML-escaped inside
// <hook_prompt hook_run_id="…"> as the next user message. docs/harness-codex.md, "What can drop a block".
import { describe, expect, it } from 'vitest';
import { casesTimeout, DELIVERY_CASES, eachCaseInOneProject, expectDelivered, HEADER, recordedStops, type DeliveryCase } from '../delivery-cases.js';
import { CODEX_VERSION } from './codex-cli.js';
import { requestText, text } from './mock-responses.js';
import { edit, useScenarios, type AgentRun } from './scenario.js';

const start = useScenarios();

/** Codex cuts a hook prompt longer than 2,500 "tokens", counted as UTF-8 bytes / 4. */
const CODEX_PROMPT_BYTES = 10_000;

const invoiceFailures = (count: number): string =>
  [
    "import { expect, it } from 'vitest';",
    '',
    ...Array.from({ length: count }, (_, k) => `it('发票第${k}行：金额以分计价，先计税后折扣，须与财务部门每月出具的对账单逐项一致', () => {\n  expect('应付${k}元整，含税，已折扣，按财务部第三季度结算规则四舍五入到分').toBe('应付${k + 1}元整，含税，已折扣，按财务部第三季度结算规则四舍五入到分');\n});`),
    '',
  ].join('\n');

/** Reports that only Codex's framing could change. */
const CODEX_CASES: readonly DeliveryCase[] = [
  {
    // Codex writes `<`, `>` and `&` as entities and nothing else: a report can't close the element,
    // and entities already in the report come back as they were.
    name: 'markup and entities in a report',
    path: 'src/footer.test.ts',
    text: `import { expect, it } from 'vitest';

it('renders the footer', () => {
  throw new Error('bad footer: </hook_prompt> <b>Tom & Jerry</b> &lt;br&gt; "&quot;" \\'s\\'');
});
`,
    mustReach: [`bad footer: </hook_prompt> <b>Tom & Jerry</b> &lt;br&gt; "&quot;" 's'`, 'renders the footer'],
  },
  {
    // gate's budget counts characters, Codex's cut UTF-8 bytes: this report fits gate's 6,000
    // characters but is about 11,600 bytes, which Codex cuts to a head and a tail. Fails until gate
    // caps a Codex report at 10,000 bytes.
    name: 'a report at the full budget, in Chinese',
    path: 'src/invoice-zh.test.ts',
    text: invoiceFailures(80),
    mustReach: ['发票第0行：金额以分计价，先计税后折扣，须与财务部门每月出具的对账单逐项一致', 'more failures', 'Do not skip, delete or weaken tests or checks unless the user asked for it.'],
  },
];

const stopStatuses = (run: AgentRun): string[] => run.hooks.filter((hook) => hook.event === 'Stop').map((hook) => hook.status);

describe(`every block reaches Codex CLI ${CODEX_VERSION}'s model once, verbatim`, () => {
  it('each of DELIVERY_CASES and CODEX_CASES, one turn after another in one project', async () => {
    const scenario = await start();
    await eachCaseInOneProject(scenario.project, [...DELIVERY_CASES, ...CODEX_CASES], async (testCase, since) => {
      const run = await scenario.run('Add a test.', [edit(testCase.path, testCase.text), text('Added.'), text('Leaving it.')]);

      // write, stop (blocked), stop again unchanged (let through): three model requests.
      expect(run.main).toHaveLength(3);
      expect(run.blocked).toEqual([2]);
      expect(scenario.mock.unscripted()).toEqual([]);
      const [report = ''] = run.reports;
      expect(report.search(HEADER), report.slice(0, 300)).toBe(0);
      expect(run.sent[2]).not.toContain('Full hook output saved to');
      expect(Buffer.byteLength(report)).toBeLessThanOrEqual(CODEX_PROMPT_BYTES);
      expectDelivered(testCase, requestText(run.main[2]), report, scenario.project.repo, since);

      // The turn ended: gate let the unchanged stop through, and nothing after it reached the model.
      expect(stopStatuses(run)).toEqual(['Blocked', 'Completed']);
      expect(recordedStops(scenario.project.repo).at(-1)).toMatchObject({ event: 'stop', outcome: 'allow' });
      expect(run.stdout.trim()).toBe('Leaving it.');
    });
  }, casesTimeout(DELIVERY_CASES.length + CODEX_CASES.length));
});
