// Reports a harness might drop or change (issue 12): real failures whose words trip a harness's own
// guesses ("no such file", "can't open": Claude Code takes them for a missing hook script), text
// outside ASCII, a line that is a JSON object, and a report at the full budget. Every harness's
// real-CLI tests run each case: the agent adds the failing test file, is blocked, reads the report
// once and verbatim, leaves it, and the turn ends.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { GateProject } from '../claude/gate-project.mjs';

export interface DeliveryCase {
  name: string;
  /** The test file the agent writes (one new file: the stop has exactly this change). */
  path: string;
  text: string;
  /** Exact strings the agent must read in the report, each exactly once. */
  mustReach: readonly string[];
}

const manyFailures = (count: number): string =>
  [
    "import { expect, it } from 'vitest';",
    '',
    ...Array.from({ length: count }, (_, k) => `it('keeps the invoice line ${k} priced in cents, with tax and discount applied in order', () => {\n  expect(${k} * 100 + 7).toBe(${k} * 100);\n});`),
    '',
  ].join('\n');

export const DELIVERY_CASES: readonly DeliveryCase[] = [
  {
    name: 'a missing file: ENOENT, "no such file or directory"',
    path: 'src/app-config.test.ts',
    text: `import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('reads the app config', () => {
  const config = JSON.parse(readFileSync('config/app.json', 'utf8')) as { name: string };
  expect(config.name).toBe('fixture');
});
`,
    mustReach: ["ENOENT: no such file or directory, open 'config/app.json'", 'reads the app config'],
  },
  {
    name: `a shell that "can't open" a script`,
    path: 'src/setup-script.test.ts',
    text: `import { expect, it } from 'vitest';

function runSetup(): string {
  throw new Error("sh: 0: Can't open scripts/setup.sh");
}

it('runs the setup script', () => {
  expect(runSetup()).toBe('ready');
});
`,
    mustReach: ["Error: sh: 0: Can't open scripts/setup.sh", 'runs the setup script'],
  },
  {
    name: 'text outside ASCII (CJK, emoji)',
    path: 'src/greet.test.ts',
    text: `import { expect, it } from 'vitest';

const greet = (): string => '你好 🚀';

it('问候: greets in Chinese 👋', () => {
  expect(greet()).toBe('你好，世界 🚀');
});
`,
    mustReach: ['问候: greets in Chinese 👋', "expected '你好 🚀' to be '你好，世界 🚀'"],
  },
  {
    name: 'a line that is a JSON object a harness could take for its protocol',
    path: 'src/api-answer.test.ts',
    text: `import { expect, it } from 'vitest';

it('parses the API answer', () => {
  throw new Error('bad answer:\\n{"decision":"approve","continue":false,"stopReason":"all green"}');
});
`,
    mustReach: ['{"decision":"approve","continue":false,"stopReason":"all green"}', 'parses the API answer'],
  },
  {
    name: 'a report at the full budget',
    path: 'src/invoice.test.ts',
    text: manyFailures(80),
    mustReach: ['keeps the invoice line 0 priced in cents', 'more failures', 'Do not skip, delete or weaken tests or checks unless the user asked for it.'],
  },
];

const NAME = '发票金额以分计价先计税后折扣须与财务部门每月出具的对账单逐项一致';
const VALUE = '应付金额含税已折扣按财务部第三季度结算规则四舍五入到分';

/**
 * Failing tests in Chinese, about 3 UTF-8 bytes a character, many more than `budget` characters of
 * report can hold: a report of `budget` characters is several pipe reads (64 KiB) long. The tests are
 * made in a loop: the agent's shell command that writes the file must stay a small argument.
 */
export function chineseReportCase(budget: number): DeliveryCase {
  return {
    name: `a report of ${budget} characters in Chinese (budget raised to ${budget})`,
    path: 'src/invoice-zh.test.ts',
    text: [
      "import { expect, it } from 'vitest';",
      '',
      `const NAME = '${NAME}';`,
      `const VALUE = '${VALUE}';`,
      `for (let k = 0; k < ${Math.ceil(budget / 150)}; k++) {`,
      '  it(`【${k}】${NAME}`, () => {',
      '    expect(`${VALUE}${k}`).toBe(`${VALUE}${k + 1}`);',
      '  });',
      '}',
      '',
    ].join('\n'),
    mustReach: [`【0】${NAME}`, 'more failures', 'Do not skip, delete or weaken tests or checks unless the user asked for it.'],
  };
}

/** 300 failing tests with long Chinese names: a report of about 170 KB, several 64 KiB pipe reads. */
export function manyChineseFailures(): string {
  const name = '测试名称'.repeat(30);
  const tests = Array.from({ length: 300 }, (_, k) => `it('${name} ${k}', () => {\n  expect('值${k}').toBe('另${k}');\n});`);
  return ["import { expect, it } from 'vitest';", '', ...tests, ''].join('\n');
}

/** Raises the project's report budget (`budget` may be up to 200000 characters). */
export function raiseBudget(project: Pick<GateProject, 'read' | 'write'>, budget: number): void {
  const config = JSON.parse(project.read('gate.config.json')) as Record<string, unknown>;
  project.write('gate.config.json', `${JSON.stringify({ ...config, budget }, null, 2)}\n`);
}

/**
 * Keeps only the template's test gate (gate.config.json, committed), for scenarios about how a
 * report travels or how often gate blocks: the typecheck gate passes in each of them and adds
 * nothing to the report but its count in the header, while its tsc is most of a checked stop's
 * CPU (5–8 s; more at a turn's first stop, beside the test gate's baseline run).
 */
export function onlyTheTestGate(project: Pick<GateProject, 'read' | 'write' | 'commit'>): void {
  const config = JSON.parse(project.read('gate.config.json')) as { gates: Array<{ name: string }> };
  const gates = config.gates.filter((gate) => gate.name === 'test');
  expect(gates, 'gate init configured a test gate').toHaveLength(1);
  project.write('gate.config.json', `${JSON.stringify({ ...config, gates }, null, 2)}\n`);
  project.commit('only the test gate');
}

/** The report gate blocked with starts with this line (src/report/render-report.ts). */
export const HEADER = /gate: \d+ of \d+ checks failed \([^)]*\); stop refused, block \d+ of \d+\./g;
export const REPORT_BUDGET = 6000;

/** How many times `needle` occurs in `text`. */
export function occurrences(text: string, needle: string | RegExp): number {
  if (typeof needle === 'string') return text.split(needle).length - 1;
  return [...text.matchAll(new RegExp(needle.source, 'g'))].length;
}

/** The stops gate recorded in this repository (.git/gate/stops.jsonl), oldest first. */
export function recordedStops(repo: string): Array<{ outcome: string; reportChars: number; event: string }> {
  const text = readFileSync(join(repo, '.git', 'gate', 'stops.jsonl'), 'utf8');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { outcome: string; reportChars: number; event: string });
}

/** How many stops gate has recorded in this repository so far (0 before its first). */
export function stopCount(repo: string): number {
  return existsSync(join(repo, '.git', 'gate', 'stops.jsonl')) ? recordedStops(repo).length : 0;
}

/**
 * Runs `deliver` for each case, one turn after another in one project (one copy, one `gate init`;
 * the agent CLI starts afresh, with a new session, for each). `since` is the count of stops recorded
 * before the case's turn. The case's file is removed and the removal committed before the next
 * case, so each turn's stop has exactly its own case's change. A failure names its case. Every case
 * fails the test gate, the only gate kept (onlyTheTestGate).
 */
export async function eachCaseInOneProject(project: Pick<GateProject, 'repo' | 'read' | 'write' | 'commit' | 'status'>, cases: readonly DeliveryCase[], deliver: (testCase: DeliveryCase, since: number) => Promise<void>): Promise<void> {
  onlyTheTestGate(project);
  for (const testCase of cases) {
    try {
      await deliver(testCase, stopCount(project.repo));
    } catch (error) {
      if (error instanceof Error) error.message = `${testCase.name}: ${error.message}`;
      throw error;
    }
    rmSync(join(project.repo, testCase.path));
    project.commit(`done with ${testCase.path}`);
    expect(project.status(), 'the tree is as committed before the next case').toEqual([]);
  }
}

/** A test that runs `count` cases in turn gets the real-CLI tiers' 300 s (vitest.config.ts) for each. */
export const casesTimeout = (count: number): number => count * 300_000;

/**
 * What a delivered block must look like. `everything` is all text the model was sent in the request
 * that followed the block (every message, every role), `report` the report cut out of it as the
 * harness framed it (from gate's header on, harness framing removed, entities decoded where the
 * harness encodes them). The report is there once, whole (as long as gate wrote it), and holds every
 * string the case must reach, once. `since`: the stops recorded before the case's turn, not its own.
 */
export function expectDelivered(testCase: DeliveryCase, everything: string, report: string, repo: string, since = 0): void {
  expect(occurrences(everything, HEADER), 'the report reached the model exactly once').toBe(1);
  for (const text of testCase.mustReach) expect(occurrences(report, text), `the report holds ${JSON.stringify(text)} once`).toBe(1);
  const blocks = recordedStops(repo).slice(since).filter((stop) => stop.outcome === 'block');
  expect(blocks).toHaveLength(1);
  // Unaltered: what the agent read is exactly as long as what gate wrote (no cut, no addition).
  expect(report.trimEnd().length).toBe((blocks[0]?.reportChars ?? 0) - 1);
  expect(report.length).toBeLessThanOrEqual(REPORT_BUDGET);
}
