import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { vitestFilter } from '../../src/filters/vitest.js';
import { tscFilter } from '../../src/filters/tsc.js';
import { fitFiltered, renderReport } from '../../src/report/render-report.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/vitest/${name}.txt`, import.meta.url), 'utf8');
const kept = (name: string) => {
  const result = vitestFilter(fixture(name));
  return [...result.items.flat(), ...result.summary].join('\n');
};

describe('vitest filter', () => {
  it('keeps each failing test whole: full name, assertion, expected and received, location, the failing line', () => {
    const result = vitestFilter(fixture('assertion'));
    expect(result.noun).toBe('failures');
    expect(result.items).toHaveLength(2);
    expect(result.items[0]).toEqual([
      'FAIL src/sum.test.ts > sum > adds two numbers',
      'AssertionError: expected 4 to be 3 // Object.is equality',
      '- Expected',
      '+ Received',
      '- 3',
      '+ 4',
      '❯ src/sum.test.ts:6:23',
      '6|     expect(sum(1, 2)).toBe(3);',
    ]);
    expect(result.items[1]?.[0]).toBe('FAIL src/sum.test.ts > sum > with negatives > adds a negative');
    expect(result.summary).toEqual(['Test Files  1 failed | 1 passed (2)', 'Tests  2 failed | 3 passed (5)']);
  });

  it('drops the banner, the per-file list, passing tests, timings, separators and the rest of the code frame', () => {
    const text = kept('assertion');
    for (const noise of ['RUN', 'v4.1.12', '/tmp/', 'is zero for zeros', 'passes one', 'src/ok.test.ts', '✓', '×', 'Start at', 'Duration', 'ms', '⎯', 'Failed Tests', "describe('sum'", '^']) {
      expect(text).not.toContain(noise);
    }
  });

  it('keeps multi-line object and array diffs with their -/+ lines', () => {
    const text = kept('object-diff');
    expect(text).toContain('FAIL src/user.test.ts > makeUser > builds an admin user');
    expect(text).toContain('-     "city": "Paris",\n+     "city": "Lyon",\n      "zip": "69001",');
    expect(text).toContain('      "reader",\n-     "admin",\n    ],');
    expect(text).toContain('    "beta",\n-   "gamma",\n    "delta",');
    expect(text).toContain('(2 matching properties omitted from actual)');
    expect(text).toContain('-       4,\n+       3,');
    expect(text).not.toContain('keeps the name');
  });

  it('keeps the toHaveBeenCalledWith diff and the call count', () => {
    const text = kept('called-with');
    expect(text).toContain('AssertionError: expected "vi.fn()" to be called with arguments: [ \'ada@example.com\', …(1) ]');
    expect(text).toContain('  1st vi.fn() call:');
    expect(text).toContain('-     "count": 3,\n+     "count": 2,');
    expect(text).toContain('Number of calls: 1');
    expect(text).toContain('AssertionError: expected "vi.fn()" to be called 2 times, but got 1 times');
  });

  it('keeps thrown errors and the user frames, drops the frames inside node_modules', () => {
    const result = vitestFilter(fixture('thrown-error'));
    expect(result.items[0]).toEqual([
      'FAIL src/version.test.ts > nextMajor > bumps a tagged version',
      'TypeError: Invalid Version: v1.2',
      '❯ nextMajor src/version.ts:4:10',
      "4|   return new SemVer(version).inc('major').version;",
      '❯ src/version.test.ts:6:12',
    ]);
    const text = kept('thrown-error');
    expect(text).toContain('RangeError: port 80 is privileged');
    expect(text).toContain("SyntaxError: Expected property name or '}' in JSON at position 1");
    expect(text).not.toContain('node_modules');
  });

  it('keeps files that fail to load, with the parse error and its position, without the bundler frames', () => {
    const result = vitestFilter(fixture('load-error'));
    expect(result.items.map((item) => item[0])).toEqual([
      'FAIL src/missing.test.ts [ src/missing.test.ts ]',
      'FAIL src/syntax.test.ts [ src/syntax.test.ts ]',
      'FAIL src/throws-at-import.test.ts [ src/throws-at-import.test.ts ]',
    ]);
    const text = kept('load-error');
    expect(text).toContain("Error: Cannot find module './helpers/does-not-exist' imported from");
    expect(text).toContain('[PARSE_ERROR] Expected `,` or `)` but found `;`');
    expect(text).toContain('╭─[ src/syntax.test.ts:4:19 ]');
    expect(text).toContain(' 4 │   expect(1).toBe(1;');
    expect(text).toContain('SyntaxError: Unexpected end of JSON input');
    expect(text).not.toMatch(/node_modules|transformWithOxc|still passes/);
    expect(result.summary).toEqual(['Test Files  3 failed | 1 passed (4)', 'Tests  1 passed (1)']);
    expect(result.failures.map((failure) => failure.id)).toEqual(['src/missing.test.ts', 'src/syntax.test.ts', 'src/throws-at-import.test.ts']);
  });

  it('keeps timeouts and unhandled errors, without the explanations Vitest repeats every time', () => {
    const result = vitestFilter(fixture('timeout-unhandled-error'));
    const text = kept('timeout-unhandled-error');
    expect(text).toContain('FAIL src/timer.test.ts > waits for the slow thing\nError: Test timed out in 50ms.');
    expect(result.items[1]).toEqual([
      'Uncaught Exception',
      'Error: cannot save a record without an id',
      '❯ Timeout._onTimeout src/timer.test.ts:5:38',
      "5|     if (data.id === undefined) throw new Error('cannot save a record w…",
      'This error originated in "src/timer.test.ts" test file.',
      'The latest test that might\'ve caused the error is "schedules a save".',
    ]);
    expect(text).not.toMatch(/node:internal|false positive|- The error was thrown|It doesn't mean/);
    expect(result.summary).toContain('Errors  1 error');
    expect(result.failures[1]).toMatchObject({ file: 'src/timer.test.ts', line: 5, message: 'Error: cannot save a record without an id' });
  });

  it('gives a structured failure per test: full name with its file, the line in the test file, the message', () => {
    expect(vitestFilter(fixture('assertion')).failures).toEqual([
      { id: 'src/sum.test.ts > sum > adds two numbers', file: 'src/sum.test.ts', line: 6, message: 'AssertionError: expected 4 to be 3 // Object.is equality', expected: '3', received: '4' },
      { id: 'src/sum.test.ts > sum > with negatives > adds a negative', file: 'src/sum.test.ts', line: 13, message: 'AssertionError: expected 4 to be 3 // Object.is equality', expected: '3', received: '4' },
    ]);
    expect(vitestFilter(fixture('thrown-error')).failures[0]).toMatchObject({ file: 'src/version.test.ts', line: 6 });
  });

  it('reads coloured output exactly as plain output: no escapes, same bytes although the timings differ', () => {
    for (const name of ['assertion', 'object-diff']) {
      const colour = vitestFilter(fixture(`colour-${name}`));
      const plain = vitestFilter(fixture(name));
      expect(colour.items).toEqual(plain.items);
      expect(colour.summary).toEqual(plain.summary);
      expect(fixture(`colour-${name}`)).toContain('\x1b[');
      expect(kept(`colour-${name}`)).not.toContain('\x1b');
    }
  });

  it('with 200 failures shows the first ones whole and in order, then a count, then the totals', () => {
    const result = vitestFilter(fixture('volume-200-failures'));
    expect(result.items).toHaveLength(200);
    const lines = fitFiltered(result, 6000);
    const text = lines.join('\n');
    expect(text.length).toBeLessThanOrEqual(6000);
    const shown = [...text.matchAll(/^FAIL .* computes price #(\d+)$/gm)].map((match) => Number(match[1]));
    expect(shown.length).toBeGreaterThanOrEqual(15);
    expect(shown).toEqual(shown.map((_, index) => index));
    expect(lines.at(-3)).toBe(`… ${200 - shown.length} more failures`);
    expect(lines.slice(-2)).toEqual(['Test Files  10 failed (10)', 'Tests  200 failed | 10 passed (210)']);
    // Each shown failure is whole: its values and its location come with its name.
    expect(text).toContain(`- ${2 * (shown.length - 1)}\n+ ${2 * (shown.length - 1) + 1}\n❯ src/price-`);
  });

  it('shares the report with another gate and still starts each with its first failures', () => {
    const tscVolume = readFileSync(new URL('../fixtures/outputs/tsc/volume-500-errors.txt', import.meta.url), 'utf8');
    const gate = (name: string, filtered: ReturnType<typeof vitestFilter>) => ({ name, command: name, outcome: 'exit 1', filtered, log: `.git/gate/${name}.log` });
    const report = renderReport({
      failed: [gate('test', vitestFilter(fixture('volume-200-failures'))), gate('types', tscFilter(tscVolume))],
      gateCount: 2,
      block: 1,
      maxBlocks: 3,
      budget: 6000,
    });
    expect(report.length).toBeLessThanOrEqual(6000);
    expect(report).toContain('$ test\nFAIL src/price-0.test.ts > price batch 0 > computes price #0\nAssertionError: expected 1 to be +0');
    expect(report).toContain("$ types\nsrc/items-00.ts(3,30): error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(report).toMatch(/\n… \d+ more failures; full log: \.git\/gate\/test\.log\nTest Files {2}10 failed \(10\)\nTests {2}200 failed \| 10 passed \(210\)\n/);
    expect(report).toMatch(/\n… \d+ more errors; full log: \.git\/gate\/types\.log\n500 diagnostics in 25 files\.\n/);
  });
});
