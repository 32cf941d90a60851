import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { CLOSING, fitFiltered, renderReport, renderReportWithin, shareBudget, type FailedGate } from '../../src/report/render-report.js';
import type { Filtered } from '../../src/filters/filter.js';

function filtered(items: string[][], summary: string[] = [], noun = 'failures'): Filtered {
  return { items, noun, summary, dropped: 0, failures: [] };
}

function gate(name: string, items: string[][], summary: string[] = []): FailedGate {
  return { name, command: `npx ${name}`, outcome: 'failed (exit 1)', filtered: filtered(items, summary), log: `.git/gate/logs/${name}.log` };
}

describe('renderReport', () => {
  it('has a header, each failed gate with its command and exit status, and the closing line', () => {
    const report = renderReport({ failed: [gate('test', [['FAIL a > b', 'expected 1 to be 2']])], gateCount: 2, block: 1, maxBlocks: 3, budget: 6000 });
    expect(report).toBe(
      [
        'gate: 1 of 2 checks failed (test); stop refused, block 1 of 3.',
        '',
        '## test: failed (exit 1)',
        '$ npx test',
        'FAIL a > b',
        'expected 1 to be 2',
        '(full log: .git/gate/logs/test.log)',
        '',
        CLOSING,
        '',
      ].join('\n'),
    );
  });

  it('stays within the budget with huge output, keeping the first failures whole, a count, and the totals', () => {
    const many = Array.from({ length: 5000 }, (_, i) => [`FAIL test number ${i}`, `expected ${i} to be ${i + 1}`]);
    const lint = Array.from({ length: 500 }, (_, i) => [`src/f${i}.ts:1:1 error no-unused-vars`]);
    const report = renderReport({
      failed: [gate('test', many, ['Tests  5000 failed (5000)']), { ...gate('lint', lint), filtered: filtered(lint, [], 'problems') }],
      gateCount: 2,
      block: 2,
      maxBlocks: 3,
      budget: 6000,
    });
    expect(report.length).toBeLessThanOrEqual(6000);
    expect(report).toContain('FAIL test number 0\nexpected 0 to be 1\nFAIL test number 1\n');
    expect(report).toContain('src/f0.ts:1:1 error no-unused-vars');
    expect(report).toMatch(/expected \d+ to be \d+\n… 4\d\d\d more failures; full log: \.git\/gate\/logs\/test\.log\nTests {2}5000 failed \(5000\)/);
    expect(report).toMatch(/… 4\d\d more problems; full log: \.git\/gate\/logs\/lint\.log/);
    // Items are kept whole: a failure's name is never left without its message.
    expect(report).not.toMatch(/FAIL test number \d+\n…/);
    expect(report.endsWith(`${CLOSING}\n`)).toBe(true);
  });

  it('is the same bytes for the same failures', () => {
    const input = { failed: [gate('test', [['x'], ['y']])], gateCount: 1, block: 1, maxBlocks: 3, budget: 1000 };
    expect(renderReport(input)).toBe(renderReport(structuredClone(input)));
  });
});

describe('shareBudget', () => {
  it('gives small sections what they need and splits the rest evenly', () => {
    expect(shareBudget([100, 5000, 5000], 3100)).toEqual([100, 1500, 1500]);
    expect(shareBudget([10, 20], 1000)).toEqual([10, 20]);
  });
});

describe('fitFiltered', () => {
  it('returns everything when it fits, and counts in the filter\'s noun when it does not', () => {
    expect(fitFiltered(filtered([['a'], ['b']], ['2 failed']), 100)).toEqual(['a', 'b', '2 failed']);
    expect(fitFiltered(filtered([['a'.repeat(50)], ['b'.repeat(50)], ['c']], ['3 failed']), 70)).toEqual(['a'.repeat(50), '… 2 more failures', '3 failed']);
    expect(fitFiltered(filtered([['x'], ['y']], [], 'lines'), 2)).toEqual(['x', '… 1 more line']);
  });
});

describe('renderReport cuts', () => {
  it('never splits an emoji in half where a long command or the whole report is cut', () => {
    const emoji = '🚀'.repeat(400);
    const reports = ['npx test ', 'npx tests '].flatMap((prefix) =>
      [300, 301].map((budget) => renderReport({ failed: [{ ...gate('test', [['FAIL a']]), command: `${prefix}${emoji}` }], gateCount: 1, block: 1, maxBlocks: 3, budget })),
    );
    for (const report of reports) {
      expect(report).toContain('🚀…');
      expect(report).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });
});

describe('renderReportWithin', () => {
  const chinese = Array.from({ length: 200 }, (_, i) => [`FAIL 发票第${i}行应以分计价，含税与折扣`, `期望 ${i} 得到 ${i + 1}，金额不符`]);
  const input = { failed: [gate('test', chinese, ['Tests  200 failed (200)'])], gateCount: 1, block: 1, maxBlocks: 3, budget: 6000 };

  it('shrinks a report of wide characters until its UTF-8 bytes fit, keeping its shape', () => {
    expect(Buffer.byteLength(renderReport(input))).toBeGreaterThan(10_000);
    const report = renderReportWithin(10_000, input);
    expect(Buffer.byteLength(report)).toBeLessThanOrEqual(10_000);
    expect(Buffer.byteLength(report)).toBeGreaterThan(9_000);
    expect(report).toMatch(/^gate: 1 of 1 checks failed \(test\); stop refused, block 1 of 3\.\n/);
    expect(report).toContain('FAIL 发票第0行应以分计价，含税与折扣');
    expect(report).toMatch(/… \d+ more failures; full log: \.git\/gate\/logs\/test\.log\nTests {2}200 failed \(200\)\n\n/);
    expect(report.endsWith(`${CLOSING}\n`)).toBe(true);
  });

  it('changes nothing when there is no byte limit, or the report fits', () => {
    expect(renderReportWithin(undefined, input)).toBe(renderReport(input));
    expect(renderReportWithin(1_000_000, input)).toBe(renderReport(input));
  });
});

// graphql-js, one line added to src/language/location.ts (an invariant that throws past line 11): mocha
// printed 53 failures, 48 of them the same error thrown through the same frames.
describe('failures grouped by their stack, the changed files\' tests first (real mocha output)', () => {
  const output = readFileSync(join(import.meta.dirname, '../fixtures/outputs/mocha/graphql-js-53-failing.txt'), 'utf8');
  const root = '/work/graphql-js';
  const report = (changed: string[]) =>
    renderReport({ failed: [{ ...gate('test', []), filtered: filterOutput('mocha', output), cwd: root }], gateCount: 1, block: 1, maxBlocks: 3, budget: 6000, changed: changed.map((path) => `${root}/${path}`) });

  it('shows one trace for the 48 failures thrown from one place, with their names, before the 5 assertion failures', () => {
    const text = report(['src/language/location.ts']);
    expect(text.match(/^FAIL /gm)).toHaveLength(3);
    expect(text.match(/at getLocation \(/g)).toHaveLength(1);
    expect(text).toMatch(/^FAIL Type System: A Schema must have Object root types > rejects a Schema whose types are incorrectly typed\n {2}Error: line 14 is past the end\n {2}at invariant /m);
    expect(text).toMatch(/^ {2}… and 47 more with the same stack: Type System: Union types must be valid > rejects a Union type with duplicated member type; .{400,}…$/m);
    expect(text).toContain('… 3 more failures; full log: .git/gate/logs/test.log\n1870 passing, 53 failing');
  });

  it("puts a changed file's own test first, leading its group, and a changed test file's failure before the others", () => {
    expect(report(['src/validation/rules/UniqueFieldDefinitionNamesRule.ts'])).toMatch(/^\$ npx test\nFAIL Validate: Unique field definition names > duplicate fields inside the same type definition\n/m);
    const text = report(['src/execution/__tests__/mutations-test.ts']);
    expect(text).toMatch(/^\$ npx test\nFAIL Execute: Handles mutation execution ordering > evaluates mutations correctly in the presence of a failed mutation\n/m);
    expect(text.indexOf('Handles mutation execution ordering')).toBeLessThan(text.indexOf('and 47 more with the same stack'));
  });
});
