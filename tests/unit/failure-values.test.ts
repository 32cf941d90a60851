import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

// Expected and received values of failed assertions, from the captured outputs in tests/fixtures/outputs/.
const values = (filter: string, file: string) =>
  filterOutput(filter, readFileSync(join(PROJECT_ROOT, 'tests/fixtures/outputs', file), 'utf8')).failures.map((failure) => [failure.id.split(' > ').at(-1), failure.expected, failure.received]);

describe('expected and received values in the JS filters', () => {
  it('vitest: the one-line diff, else the message, else (cut short, toMatchObject) the multi-line diff joined into one line', () => {
    expect(values('vitest', 'vitest/assertion.txt')).toEqual([
      ['adds two numbers', '3', '4'],
      ['adds a negative', '3', '4'],
    ]);
    expect(values('vitest', 'vitest/colour-assertion.txt')).toEqual(values('vitest', 'vitest/assertion.txt'));
    expect(values('vitest', 'vitest/object-diff.txt')[2]).toEqual(['matches an object subset', '{ "b": { "c": [ 1, 2, 4, ], }, }', '{ "b": { "c": [ 1, 2, 3, ], }, }']);
  });

  it('jest: "Expected:" and "Received:", else its indented object diff joined into one line', () => {
    expect(values('jest', 'jest/assertion.txt')).toEqual([
      ['adds two numbers', '3', '4'],
      ['adds a negative', '3', '4'],
    ]);
    expect(values('jest', 'jest/object-diff.txt')[2]).toEqual(['matches an object subset', 'Object { "b": Object { "c": Array [ 1, 2, 4, ], }, }', 'Object { "b": Object { "c": Array [ 1, 2, 3, ], }, }']);
  });

  it('node:test: the AssertionError properties (spec) and the YAML fields (TAP)', () => {
    expect(values('node-test', 'node-test/spec-assertions.txt').slice(0, 2)).toEqual([
      ['adds two numbers', '3', '4'],
      ['adds a negative', '3', '4'],
    ]);
    expect(values('node-test', 'node-test/tap-assertions.txt').slice(0, 2)).toEqual([
      ['adds two numbers', '3', '4'],
      ['adds a negative', '3', '4'],
    ]);
  });

  it('mocha: "+ expected - actual" when it is one line each, for node:assert and chai', () => {
    const node = values('mocha', 'mocha/node-assert.txt');
    expect(node.slice(0, 2)).toEqual([
      ['adds two numbers', '3', '4'],
      ['adds a negative', '3', '4'],
    ]);
    expect(node.find(([name]) => name === 'greets')).toEqual(['greets', 'Hello, Ada.', 'Hello, Ada!']);
    expect(values('mocha', 'mocha/chai.txt')).toEqual([
      ['totals the items', '25', '26'],
      ['summarizes', undefined, undefined],
      ['has the item', undefined, undefined],
    ]);
  });
});
