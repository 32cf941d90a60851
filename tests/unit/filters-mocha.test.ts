import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mochaFilter } from '../../src/filters/mocha.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/mocha/${name}.txt`, import.meta.url), 'utf8');
const kept = (name: string) => {
  const result = mochaFilter(fixture(name));
  return [...result.items.flat(), ...result.summary].join('\n');
};

describe('mocha filter', () => {
  it('keeps each failure with its full title, message, Mocha\'s inverted diff and the user frame', () => {
    const result = mochaFilter(fixture('chai'));
    expect(result.noun).toBe('failures');
    expect(result.items[0]).toEqual([
      'FAIL cart > totals the items',
      '  AssertionError: expected 26 to equal 25',
      '  + expected - actual',
      '  -26',
      '  +25',
      '  at Context.<anonymous> (test/cart.spec.js:17:29)',
    ]);
    const text = kept('chai');
    expect(text).toContain('  -  "currency": "EUR"\n  +  "currency": "USD"');
    expect(text).toContain('  +    "C-3"');
    expect(text).toContain("  AssertionError: expected [ 'A-1', 'B-2' ] to include 'C-3'");
    expect(result.summary).toEqual(['1 passing, 3 failing']);
  });

  it('keeps nested titles, hooks and timeouts, and both diffs of a Node assertion', () => {
    const result = mochaFilter(fixture('node-assert'));
    expect(result.items.map((item) => item[0])).toEqual([
      'FAIL sum > adds two numbers',
      'FAIL sum > with negatives > adds a negative',
      'FAIL makeUser > builds an admin user',
      'FAIL makeUser > lists tags',
      'FAIL makeUser > greets',
      'FAIL nextMajor > bumps a tagged version',
      'FAIL nextMajor > finishes in time',
      'FAIL database > "before all" hook for "reads a row"',
    ]);
    const text = kept('node-assert');
    expect(text).toContain("  + actual - expected ... Lines skipped\n    {\n      address: {\n  +     city: 'Lyon',\n  -     city: 'Paris',");
    expect(text).toContain('  + expected - actual\n   {\n     "address": {\n  -    "city": "Lyon"\n  +    "city": "Paris"');
    expect(text).toContain('  -Hello, Ada!\n  +Hello, Ada.\n   Welcome back.');
    expect(text).toContain('  Error: Timeout of 50ms exceeded.');
    expect(text).toContain('  Error: connect ECONNREFUSED 127.0.0.1:5432\n  at Context.<anonymous> (test/version.spec.js:27:11)');
    expect(result.summary).toEqual(['2 passing, 8 failing']);
  });

  it('drops the progress tree, passing tests, timings and frames in node_modules and Node', () => {
    const text = kept('node-assert');
    for (const noise of ['✔', 'is zero for zeros', 'bumps a plain version', '1) adds two numbers', '(59ms)', 'node:internal', 'node_modules', 'processImmediate']) {
      expect(text).not.toContain(noise);
    }
  });

  it('keeps a file that fails to load, which ends the run before any test', () => {
    expect(mochaFilter(fixture('load-syntax-error')).items).toEqual([
      ['Exception during run', '  /tmp/jsf/tools/mo/load-error/test/syntax.spec.js:4', '    assert.strictEqual(1, 1;', '  SyntaxError: missing ) after argument list'],
    ]);
    const missing = kept('load-missing-module');
    expect(missing).toContain("Error: Cannot find module './helpers/does-not-exist'");
    expect(missing).toContain('  at Object.<anonymous> (/tmp/jsf/tools/mo/missing/test/missing.spec.js:2:20)');
    expect(missing).toContain("    code: 'MODULE_NOT_FOUND',");
    expect(missing).not.toMatch(/node_modules|node:internal|^\}$/m);
  });

  it('gives a structured failure per test, with the file from its first user frame', () => {
    const failures = mochaFilter(fixture('node-assert')).failures;
    expect(failures[1]).toEqual({
      id: 'test/sum.spec.js > sum > with negatives > adds a negative',
      file: 'test/sum.spec.js',
      line: 13,
      message: 'AssertionError [ERR_ASSERTION]: sum(5, -2) should be 3',
      expected: '3',
      received: '4',
    });
    expect(failures[6]).toEqual({ id: 'nextMajor > finishes in time', message: expect.stringMatching(/^Error: Timeout of 50ms exceeded/) });
  });

  it('reads coloured output exactly as plain output', () => {
    const colour = mochaFilter(fixture('colour-node-assert'));
    const plain = mochaFilter(fixture('node-assert'));
    expect(colour.items).toEqual(plain.items);
    expect(colour.summary).toEqual(plain.summary);
    expect(kept('colour-node-assert')).not.toContain('\x1b');
  });
});
