// Every block reaches Copilot CLI's model once, verbatim, whatever its words (issue 12). Copilot reads
// an agentStop hook's whole stdout as one JSON object (its native runtime, hooks/command_executor.rs)
// and sends `reason` as the next user message after a `<current_datetime>` line of its own; it reads
// no stderr. gate answers its own entry (`--harness copilot`) and a Claude Code entry that Copilot
// runs from .claude/settings.json alike. docs/harness-copilot.md, "What can drop a block".
import { describe, expect, it } from 'vitest';
import { casesTimeout, DELIVERY_CASES, expectDelivered, type DeliveryCase } from '../delivery-cases.js';
import { deliverCase, expectCasesDelivered, expectLargeReportDelivered, startsAtHeader } from '../chat-delivery.js';
import { useChatScenarios, type Scenario } from '../chat-completions-scenario.js';
import { copilot, COPILOT_VERSION } from './copilot-cli.js';

const start = useChatScenarios(copilot);
const NATIVE = [['--harness', 'copilot']];
const CLAUDE = [[]];

const DATETIME = /^<current_datetime>[^<\n]*<\/current_datetime>\n\n/;

/** Copilot puts a `<current_datetime>` line and a blank line before the reason; nothing after it. */
function afterDatetime(sent: string): string {
  expect(sent).toMatch(DATETIME);
  return startsAtHeader(sent.replace(DATETIME, ''));
}

describe(`every block reaches Copilot CLI ${COPILOT_VERSION}'s model once, verbatim (--harness copilot)`, () => {
  it('each of DELIVERY_CASES, one turn after another in one project', async () => {
    await expectCasesDelivered(copilot, start, NATIVE, DELIVERY_CASES, afterDatetime);
  }, casesTimeout(DELIVERY_CASES.length));
});

describe(`every block reaches Copilot CLI ${COPILOT_VERSION}'s model once, verbatim (a Claude Code install run by Copilot)`, () => {
  it('each of DELIVERY_CASES, one turn after another in one project', async () => {
    await expectCasesDelivered(copilot, start, CLAUDE, DELIVERY_CASES, afterDatetime);
  }, casesTimeout(DELIVERY_CASES.length));
});

// gate's generic filter cuts a line at 400 UTF-16 code units: here between the two halves of an
// emoji. JSON.stringify writes the lone half as the escape \ud83d, which Copilot's JSON parser
// rejects, and Copilot lets the stop through, silently (measured). Fails until gate writes only
// well-formed text into its JSON (String.prototype.toWellFormed).
const HALF_EMOJI: DeliveryCase = {
  name: 'a line of a tool output cut in the middle of an emoji',
  path: 'banner.txt',
  text: 'Welcome!\n',
  mustReach: ['banner check', '… (201 more characters)'],
};
// Red because of the turn's banner: a check red the same way before the turn would not block (issue 37).
const BANNER_CHECK = "import { existsSync } from 'node:fs';\nif (existsSync('banner.txt')) {\n  process.stdout.write('banner check\\nx' + '🚀'.repeat(300) + '\\n1 problem\\n');\n  process.exitCode = 1;\n}\n";

function addBannerGate(scenario: Scenario): void {
  scenario.project.write('scripts/banner-check.mjs', BANNER_CHECK);
  const gates = [{ name: 'banner', run: ['node', 'scripts/banner-check.mjs'], on: ['banner.txt'] }];
  scenario.project.write('gate.local.json', `${JSON.stringify({ gates }, null, 2)}\n`);
}

describe(`a report that gate cut in the middle of an emoji reaches Copilot CLI ${COPILOT_VERSION}'s model`, () => {
  it.each([
    ['--harness copilot', NATIVE],
    ['a Claude Code install', CLAUDE],
  ])('%s', async (_label, install) => {
    const delivery = await deliverCase(copilot, start, install, HALF_EMOJI, afterDatetime, addBannerGate);
    expectDelivered(HALF_EMOJI, delivery.everything, delivery.report, delivery.scenario.project.repo);
  });
});

// Copilot decodes the hook's stdout whole (measured: no broken character in 180 KB of Chinese), so
// a report longer than one pipe read arrives intact. 50000 characters: a larger report makes Copilot
// compact the conversation first, which is another request.
describe(`a report longer than one pipe read reaches Copilot CLI ${COPILOT_VERSION}'s model unaltered`, () => {
  it('keeps every character of a report of 50000 characters in Chinese', async () => {
    await expectLargeReportDelivered(copilot, start, NATIVE, afterDatetime, 50_000);
  });
});
