import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jestFilter } from '../../src/filters/jest.js';
import { fitFiltered } from '../../src/report/render-report.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/jest/${name}.txt`, import.meta.url), 'utf8');
const kept = (name: string) => {
  const result = jestFilter(fixture(name));
  return [...result.items.flat(), ...result.summary].join('\n');
};

describe('jest filter', () => {
  it('keeps each failing test whole, named with its file: matcher, expected and received, the failing line, the frame', () => {
    const result = jestFilter(fixture('assertion'));
    expect(result.noun).toBe('failures');
    expect(result.items[0]).toEqual([
      '● src/sum.test.js › sum › adds two numbers',
      '  expect(received).toBe(expected) // Object.is equality',
      '  Expected: 3',
      '  Received: 4',
      '  > 5 |     expect(sum(1, 2)).toBe(3);',
      '    at Object.toBe (src/sum.test.js:5:23)',
    ]);
    expect(result.items[1]?.[0]).toBe('● src/sum.test.js › sum › with negatives › adds a negative');
    expect(result.summary).toEqual(['Test Suites: 1 failed, 1 passed, 2 total', 'Tests: 2 failed, 3 passed, 5 total']);
  });

  it('drops passing suites, the test tree, the rest of the code frame, snapshots, timings', () => {
    const text = kept('object-diff');
    for (const noise of ['PASS', '✓', '✕', 'keeps the name', '(5 ms)', 'Time:', 'Ran all test suites', 'Snapshots:', '|                             ^', "6 |       id: 1,"]) {
      expect(text).not.toContain(noise);
    }
    expect(kept('assertion')).not.toContain('src/ok.test.js');
  });

  it('keeps object and array diffs with their -/+ lines and the diff header', () => {
    const text = kept('object-diff');
    expect(text).toContain('  - Expected  - 2\n  + Received  + 1');
    expect(text).toContain('  -     "city": "Paris",\n  +     "city": "Lyon",');
    expect(text).toContain('  -     "admin",');
    expect(text).toContain('  -   "gamma",');
    expect(text).toContain('  -       4,\n  +       3,');
    expect(text).toContain('● src/user.test.js › tags › matches an object subset');
  });

  it('keeps the toHaveBeenCalledWith diff and call counts', () => {
    const text = kept('called-with');
    expect(text).toContain('  expect(jest.fn()).toHaveBeenCalledWith(...expected)');
    expect(text).toContain('  -   "count": 3,\n  +   "count": 2,');
    expect(text).toContain('  Number of calls: 1');
    expect(text).toContain('  Expected number of calls: 2\n  Received number of calls: 1');
  });

  it('keeps thrown errors and user frames, drops frames in node_modules and native ones', () => {
    const result = jestFilter(fixture('thrown-error'));
    expect(result.items[0]).toEqual([
      '● src/version.test.js › nextMajor › bumps a tagged version',
      '  TypeError: Invalid Version: v1.2',
      "  > 4 |   return new SemVer(version).inc('major').version;",
      '    at nextMajor (src/version.js:4:10)',
      '    at Object.nextMajor (src/version.test.js:5:12)',
    ]);
    const text = kept('thrown-error');
    expect(text).toContain('  RangeError: port 80 is privileged');
    expect(text).not.toMatch(/node_modules|<anonymous>/);
  });

  it('keeps suites that fail to load, without the parser\'s hundred frames', () => {
    const result = jestFilter(fixture('load-error'));
    expect(result.items.map((item) => item[0])).toEqual([
      '● src/missing.test.js › Test suite failed to run',
      '● src/throws-at-import.test.js › Test suite failed to run',
      '● src/syntax.test.js › Test suite failed to run',
    ]);
    const text = kept('load-error');
    expect(text).toContain("  Cannot find module './helpers/does-not-exist' from 'src/missing.test.js'");
    expect(text).toContain('Unexpected token, expected "," (2:18)');
    expect(text).toContain('  > 2 |   expect(1).toBe(1;');
    expect(text).not.toMatch(/node_modules|@babel|still passes/);
    expect(text.length).toBeLessThan(fixture('load-error').length / 10);
    expect(result.failures.map((failure) => failure.id)).toEqual(['src/missing.test.js', 'src/throws-at-import.test.js', 'src/syntax.test.js']);
  });

  it('keeps timeouts and rejected-promise expectations', () => {
    const text = kept('timeout-rejects');
    expect(text).toContain('  thrown: "Exceeded timeout of 50 ms for a test.');
    expect(text).toContain('    at Object.it (src/timer.test.js:1:1)');
    expect(text).toContain('  Received promise resolved instead of rejected\n  Resolved to value: 42');
    expect(text).not.toContain('jest-circus');
  });

  it('gives a structured failure per test', () => {
    expect(jestFilter(fixture('called-with')).failures).toEqual([
      { id: 'src/notify.test.js > notify > sends one message to the user', file: 'src/notify.test.js', line: 7, message: 'expect(jest.fn()).toHaveBeenCalledWith(...expected)' },
      { id: 'src/notify.test.js > notify > sends exactly once', file: 'src/notify.test.js', line: 12, message: 'expect(jest.fn()).toHaveBeenCalledTimes(expected)' },
    ]);
    expect(jestFilter(fixture('thrown-error')).failures[0]).toMatchObject({ file: 'src/version.test.js', line: 5, message: 'TypeError: Invalid Version: v1.2' });
  });

  it('reads coloured output exactly as plain output', () => {
    const colour = jestFilter(fixture('colour-object-diff'));
    const plain = jestFilter(fixture('object-diff'));
    expect(colour.items).toEqual(plain.items);
    expect(colour.summary).toEqual(plain.summary);
    expect(kept('colour-object-diff')).not.toContain('\x1b');
  });

  it('with 200 failures shows the first ones whole and in output order, then a count, then the totals', () => {
    const raw = fixture('volume-200-failures');
    const inOutputOrder = [...raw.matchAll(/^ {2}● (.+)$/gm)].map((match) => match[1]);
    const result = jestFilter(raw);
    expect(result.items).toHaveLength(200);
    const lines = fitFiltered(result, 6000);
    const text = lines.join('\n');
    expect(text.length).toBeLessThanOrEqual(6000);
    const shown = [...text.matchAll(/^● src\/price-\d\.test\.js › (.+)$/gm)].map((match) => match[1]);
    expect(shown.length).toBeGreaterThanOrEqual(15);
    expect(shown).toEqual(inOutputOrder.slice(0, shown.length));
    expect(lines.at(-3)).toBe(`… ${200 - shown.length} more failures`);
    expect(lines.slice(-2)).toEqual(['Test Suites: 10 failed, 10 total', 'Tests: 200 failed, 10 passed, 210 total']);
  });
});
