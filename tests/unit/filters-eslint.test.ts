import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eslintFilter } from '../../src/filters/eslint.js';
import { fitFiltered } from '../../src/report/render-report.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/eslint/${name}.txt`, import.meta.url), 'utf8');

describe('eslint filter', () => {
  it('makes each problem one item with its file, position, severity, message and rule id, errors first', () => {
    const result = eslintFilter(fixture('stylish'));
    expect(result.noun).toBe('problems');
    expect(result.items).toEqual([
      ["/tmp/jsf/tools/es/basic/src/broken.js:2:3  error  Parsing error: Unexpected keyword 'return'"],
      ["/tmp/jsf/tools/es/basic/src/cart.js:1:10  error  'readFile' is defined but never used  no-unused-vars"],
      ["/tmp/jsf/tools/es/basic/src/cart.js:5:7  error  'unused' is assigned a value but never used  no-unused-vars"],
      ["/tmp/jsf/tools/es/basic/src/cart.js:7:18  error  Expected '===' and instead saw '=='  eqeqeq"],
      ["/tmp/jsf/tools/es/basic/src/cart.js:10:15  error  'totl' is not defined  no-undef"],
      ['/tmp/jsf/tools/es/basic/src/cart.js:18:5  error  Duplicate case label  no-duplicate-case'],
      ["/tmp/jsf/tools/es/basic/src/cart.js:5:7  warning  'unused' is never reassigned. Use 'const' instead  prefer-const"],
      ['/tmp/jsf/tools/es/basic/src/cart.js:10:3  warning  Unexpected console statement  no-console'],
    ]);
    expect(result.summary).toEqual(['✖ 8 problems (6 errors, 2 warnings)', '0 errors and 1 warning potentially fixable with the `--fix` option.']);
  });

  it('gives a structured failure per problem, keyed by file, rule and message (not the line)', () => {
    expect(eslintFilter(fixture('stylish')).failures[1]).toEqual({
      id: "/tmp/jsf/tools/es/basic/src/cart.js no-unused-vars: 'readFile' is defined but never used",
      rule: 'no-unused-vars',
      file: '/tmp/jsf/tools/es/basic/src/cart.js',
      line: 1,
      message: "'readFile' is defined but never used",
    });
  });

  it('reads coloured output exactly as plain output', () => {
    const colour = eslintFilter(fixture('colour-stylish'));
    expect(colour.items).toEqual(eslintFilter(fixture('stylish')).items);
    expect([...colour.items.flat(), ...colour.summary].join('\n')).not.toContain('\x1b');
  });

  it('keeps what ESLint says when it cannot run, without its apology and version', () => {
    const result = eslintFilter(fixture('no-config'));
    const text = [...result.items.flat(), ...result.summary].join('\n');
    expect(text).toContain("ESLint couldn't find an eslint.config.(js|mjs|cjs) file.");
    expect(text).not.toMatch(/Oops|ESLint: 9/);
  });

  it('with 500 errors and 250 warnings shows the first errors in order, then a count, then the totals', () => {
    const result = eslintFilter(fixture('volume-500-errors'));
    expect(result.items).toHaveLength(750);
    const lines = fitFiltered(result, 6000);
    expect(lines.join('\n').length).toBeLessThanOrEqual(6000);
    const shown = lines.slice(0, -3);
    expect(shown.length).toBeGreaterThanOrEqual(40);
    expect(shown.every((line) => line.includes('  error  '))).toBe(true);
    expect(shown.slice(0, 3)).toEqual([
      "/tmp/jsf/tools/es/volume/src/mod-00.js:2:7  error  'unused0' is assigned a value but never used  no-unused-vars",
      "/tmp/jsf/tools/es/volume/src/mod-00.js:3:10  error  'b0' is not defined  no-undef",
      "/tmp/jsf/tools/es/volume/src/mod-00.js:6:7  error  'unused1' is assigned a value but never used  no-unused-vars",
    ]);
    expect(lines.slice(-3)).toEqual([
      `… ${750 - shown.length} more problems`,
      '✖ 750 problems (500 errors, 250 warnings)',
      '0 errors and 250 warnings potentially fixable with the `--fix` option.',
    ]);
  });
});
