// Every block reaches Factory Droid's model once, verbatim, whatever its words (issue 12). Droid
// takes an exit-2 Stop hook's stderr as it is (the agent loop's stop_hooks step, read from the
// binary) and sends it as the next user message; it parses no stderr and guesses nothing from it.
// docs/harness-factory.md, "What can drop a block".
import { describe, expect, it } from 'vitest';
import { casesTimeout, DELIVERY_CASES, expectDelivered, HEADER, occurrences, type DeliveryCase } from '../delivery-cases.js';
import { deliverCase, expectCasesDelivered, expectLargeReportDelivered, startsAtHeader } from '../chat-delivery.js';
import { useChatScenarios } from '../chat-completions-scenario.js';
import { droid, FACTORY_VERSION } from './droid-cli.js';

const start = useChatScenarios(droid);
const INSTALL = [['--harness', 'factory']];

describe(`every block reaches Factory Droid ${FACTORY_VERSION}'s model once, verbatim`, () => {
  it('each of DELIVERY_CASES, one turn after another in one project', async () => {
    await expectCasesDelivered(droid, start, INSTALL, DELIVERY_CASES, startsAtHeader);
  }, casesTimeout(DELIVERY_CASES.length));
});

// Droid reads every user message, a Stop hook's included, for `@path` tokens naming a file or folder
// in the project, and puts that file's contents (or the folder's listing) before the message.
const TAGGED: DeliveryCase = {
  name: 'a report that names a project file as @src/sum.ts',
  path: 'src/sum-docs.test.ts',
  text: `import { it } from 'vitest';

it('documents sum', () => {
  throw new Error('see @src/sum.ts for the signature');
});
`,
  mustReach: ['Error: see @src/sum.ts for the signature', 'documents sum'],
};
const REMINDERS = /^(?:<system-reminder>\n[\s\S]*?\n<\/system-reminder>\n)+/;

describe(`a report naming @path reaches Factory Droid ${FACTORY_VERSION}'s model whole, after the file it names`, () => {
  it(TAGGED.name, async () => {
    const delivery = await deliverCase(droid, start, INSTALL, TAGGED, (sent) => {
      expect(sent).toMatch(REMINDERS);
      return startsAtHeader(sent.replace(REMINDERS, ''));
    });
    expectDelivered(TAGGED, delivery.everything, delivery.report, delivery.scenario.project.repo);
    const added = delivery.run.sent[2]?.slice(0, delivery.run.sent[2].search(HEADER)) ?? '';
    expect(added).toMatch(/User tagged file: \S*\/src\/sum\.ts\n/);
    expect(added).toContain('return a + b;');
    expect(occurrences(delivery.everything, 'User tagged file:')).toBe(1);
  });
});

// Droid decodes a hook's stderr chunk by chunk (`toString()` per read), so a character whose bytes
// straddle two reads becomes U+FFFD. How the reads fall depends on timing: measured 0 to 17 broken
// characters in 300 to 700 KB reports, so this fails often, not always, until gate keeps a report
// for Droid within one pipe read (64 KiB of UTF-8, which never broke).
describe(`a report longer than one pipe read reaches Factory Droid ${FACTORY_VERSION}'s model unaltered`, () => {
  it('keeps every character of a report of 200000 characters in Chinese', async () => {
    await expectLargeReportDelivered(droid, start, INSTALL, startsAtHeader, 200_000);
  });
});
