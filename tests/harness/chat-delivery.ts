// The delivery tests of the Chat Completions harnesses (Qwen Code, Factory Droid, Copilot CLI), issue
// 12: a case's failing test file is written by the agent, the stop is blocked, and the report must
// reach the model once and unaltered. Each harness says how it frames the report in the user message
// it sends after a block (`Unframe`).
import { expect } from 'vitest';
import { allMessageText } from './chat-completions-mock.mjs';
import { editStep, say, type AgentCli, type AgentRun, type Install, type Scenario } from './chat-completions-scenario.js';
import { chineseReportCase, eachCaseInOneProject, expectDelivered, HEADER, occurrences, onlyTheTestGate, raiseBudget, recordedStops, stopCount, type DeliveryCase } from './delivery-cases.js';

export type StartScenario = (install: Install) => Promise<Scenario>;

/** Checks the harness's framing of the user message that followed a block; returns the report in it. */
export type Unframe = (sent: string) => string;

export interface Delivery {
  scenario: Scenario;
  /** the stops gate had recorded before this case's turn */
  since: number;
  run: AgentRun;
  /** all text of the request that followed the block */
  everything: string;
  report: string;
}

/**
 * Runs one case through the real CLI: the agent writes the case's file, says it is done (blocked),
 * then says "Leaving it." (gate lets the unchanged stop through) and the turn ends. The project keeps
 * only its test gate (onlyTheTestGate). `prepare` changes the fresh project before the turn
 * (committed, so the agent's file is the stop's only change).
 */
export async function deliverCase(cli: AgentCli, start: StartScenario, install: Install, testCase: DeliveryCase, unframe: Unframe, prepare?: (scenario: Scenario) => void): Promise<Delivery> {
  const scenario = await start(install);
  onlyTheTestGate(scenario.project);
  if (prepare) {
    prepare(scenario);
    scenario.project.commit('prepare the delivery case');
  }
  return deliverCaseIn(cli, scenario, testCase, unframe);
}

/** deliverCase in a scenario whose tree is as committed: the case's file is its turn's only change. */
async function deliverCaseIn(cli: AgentCli, scenario: Scenario, testCase: DeliveryCase, unframe: Unframe): Promise<Delivery> {
  const since = stopCount(scenario.project.repo);
  const run = await scenario.run('Add a test.', [editStep(cli, testCase.path, testCase.text), say('Added.'), say('Leaving it.')]);

  const outcomes = recordedStops(scenario.project.repo).slice(since).map((stop) => stop.outcome);
  expect(outcomes[0], 'gate blocked the first stop').toBe('block');
  // write, stop (blocked), stop again unchanged (let through): three model requests, all scripted.
  expect(run.blocked, `the block reached the model (${cli.label} sent ${run.main.length} requests):\n${run.stdout}\n${run.stderr}`).toEqual([2]);
  expect(run.main).toHaveLength(3);
  expect(scenario.mock.unscripted()).toEqual([]);
  // The turn ended at the second stop, which gate let through.
  expect(outcomes).toEqual(['block', 'allow']);
  const everything = allMessageText(run.main[2]);
  return { scenario, run, everything, report: unframe(run.sent[2] ?? ''), since };
}

/** The shared check: the report is there once, whole, verbatim and within the default budget. */
export async function expectCaseDelivered(cli: AgentCli, start: StartScenario, install: Install, testCase: DeliveryCase, unframe: Unframe): Promise<Delivery> {
  const delivery = await deliverCase(cli, start, install, testCase, unframe);
  expectDelivered(testCase, delivery.everything, delivery.report, delivery.scenario.project.repo);
  return delivery;
}

/** expectCaseDelivered for each case, one turn after another in one project (eachCaseInOneProject). */
export async function expectCasesDelivered(cli: AgentCli, start: StartScenario, install: Install, cases: readonly DeliveryCase[], unframe: Unframe): Promise<void> {
  const scenario = await start(install);
  await eachCaseInOneProject(scenario.project, cases, async (testCase, since) => {
    const delivery = await deliverCaseIn(cli, scenario, testCase, unframe);
    expectDelivered(testCase, delivery.everything, delivery.report, scenario.project.repo, since);
  });
}

/** The report's text must start at the header: nothing of the harness before it. */
export function startsAtHeader(text: string): string {
  expect(text.search(HEADER), text.slice(0, 300)).toBe(0);
  return text;
}

/**
 * A harness that decodes the hook's output chunk by chunk turns a character whose bytes straddle
 * two pipe reads into U+FFFD. gate's default report fits one read; `budget` may be raised to 200000.
 */
export async function expectLargeReportDelivered(cli: AgentCli, start: StartScenario, install: Install, unframe: Unframe, budget: number): Promise<Delivery> {
  const testCase = chineseReportCase(budget);
  const delivery = await deliverCase(cli, start, install, testCase, unframe, (scenario) => raiseBudget(scenario.project, budget));
  const { everything, report } = delivery;
  expect(occurrences(everything, HEADER), 'the report reached the model exactly once').toBe(1);
  for (const text of testCase.mustReach) expect(occurrences(report, text), `the report holds ${JSON.stringify(text)} once`).toBe(1);
  expect(occurrences(report, '\uFFFD'), 'characters broken at a read boundary').toBe(0);
  const [block] = recordedStops(delivery.scenario.project.repo).slice(delivery.since).filter((stop) => stop.outcome === 'block');
  expect(report.trimEnd().length).toBe((block?.reportChars ?? 0) - 1);
  return delivery;
}
