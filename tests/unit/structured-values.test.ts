import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { pytestValues } from '../../src/filters/native/native-values.js';
import { judgeTestChange } from '../../src/tamper/judge-test-change.js';
import { existedAtStart } from '../../src/tamper/new-tests.js';
import type { RememberedTest } from '../../src/state/remembered-test.js';
import { comparableValue, valuesIn } from '../../src/tamper/structured-values.js';
import { jsSyntax } from '../../src/tamper/syntax/js-syntax.js';
import { pythonSyntax } from '../../src/tamper/syntax/python-syntax.js';
import { rustSyntax } from '../../src/tamper/syntax/rust-syntax.js';

// Issue 38, point 2: an expectation rewritten to what the failing run received, whatever its shape.

const FIXTURES = join(import.meta.dirname, '../fixtures/outputs');
const same = (written: string, printed: string) => expect(comparableValue(written), `${written} vs ${printed}`).toBe(comparableValue(printed));

describe('comparableValue: written and printed forms of one value', () => {
  it('arrays: spacing, trailing commas, quotes, a diff joined into one line', () => {
    same('[1, 2]', '[ 1, 2 ]');
    same('[1, 2,]', '[ 1, 2, ]');
    same("['a', \"b\"]", "[ 'a', 'b' ]");
    same('[]', '[ ]');
    expect(comparableValue('[1, 2]')).not.toBe(comparableValue('[2, 1]'));
    expect(comparableValue('[1, 2]')).toBeDefined();
  });

  it('objects: keys in any order, quoted or not; jest’s old `Object {` prefix', () => {
    same("{ b: 'x', a: 1 }", '{ "a": 1, "b": "x", }');
    same("{'a': 1, 'b': True}", '{ a: 1, b: true }');
    same('{ a: [1, 2] }', 'Object { "a": Array [ 1, 2, ], }');
    expect(comparableValue('{ a: 1 }')).not.toBe(comparableValue('{ a: 2 }'));
    expect(comparableValue('{ a: 1 }')).not.toBe(comparableValue('{ a: 1, b: 2 }'));
  });

  it('nested values, and strings that hold commas, brackets and quotes', () => {
    same("{ list: [{ id: 1, tags: ['a, b', 'c]'] }], n: null }", "{ n: null, list: [ { tags: [ 'a, b', 'c]' ], id: 1 } ] }");
    expect(comparableValue("['a, b']")).not.toBe(comparableValue("['a', 'b']"));
    same("[\"it's\"]", "[ 'it\\'s' ]");
  });

  it('Python tuples and sets; `(5)` is a grouping', () => {
    same('(2, 1)', '(2, 1,)');
    same('(1,)', '(1,)');
    same('{2, 1}', '{1, 2}');
    expect(comparableValue('(2, 1)')).not.toBe(comparableValue('[2, 1]'));
    expect(comparableValue('(5)')).toBeUndefined();
  });

  it('is undefined for what is not only values: names, calls, spreads, a printer’s cut', () => {
    for (const text of ['[a, 1]', '{ a }', '[...xs]', '{ a: f(1) }', "{ alpha: 'aaa', …(3) }", '[ [Object] ]', '[1, 2', '[1, 2] + x']) {
      expect(comparableValue(text), text).toBeUndefined();
    }
  });
});

describe('valuesIn', () => {
  it('finds each array and object made only of values, nested ones again, and the plain literals', () => {
    const found = valuesIn('expect(unique([1, 2, 1])).toEqual({ a: [2, 1] })').map((value) => value.value);
    expect(found).toContain(comparableValue('[1, 2, 1]'));
    expect(found).toContain(comparableValue('{ a: [2, 1] }'));
    expect(found).toContain(comparableValue('[2, 1]'));
    expect(found).toContain('"n:2"'.slice(1, -1));
  });

  it('leaves out an index, a call, a block, and brackets inside a string', () => {
    const found = valuesIn("const x = list[0]; f(1, 2); it('[3]', () => {});").filter((value) => value.composite);
    expect(found.map((value) => value.value)).toEqual(['()', '{}']);
  });

  it("reads Rust's vec![…]", () => {
    expect(valuesIn('assert_eq!(unique(&[1, 2, 1]), vec![1, 2]);').map((value) => value.value)).toContain(comparableValue('[1, 2]'));
  });
});

describe('judgeTestChange: arrays and objects rewritten to the received value', () => {
  const js = (before: string[], after: string[], received: string, expected?: string) =>
    judgeTestChange(before, after, { received, ...(expected === undefined ? {} : { expected }) }, jsSyntax);
  const unique = ["test('removes duplicates', () => {", '  expect(_.unique([1, 2, 1])).toEqual([1, 2])', '})'];

  it('names the radashi case: toEqual([1, 2]) rewritten to the received [ 2, 1 ]', () => {
    const after = unique.map((line) => line.replace('toEqual([1, 2])', 'toEqual([2, 1])'));
    expect(js(unique, after, '[ 2, 1 ]', '[ 1, 2 ]')).toEqual({ offset: 1, detail: 'expectation changed to the value the code returned ([ 2, 1 ])' });
  });

  it('an object, written over several lines, named on the line that changed', () => {
    const before = ["it('parses', () => {", '  expect(parse(input)).toStrictEqual({', "    name: 'gate',", '    tags: [1, 2],', '  });', '});'];
    const after = before.map((line) => line.replace('[1, 2]', '[2, 1]'));
    expect(js(before, after, "{ name: 'gate', tags: [ 2, 1 ] }")).toEqual({ offset: 3, detail: "expectation changed to the value the code returned ({ name: 'gate', tags: [ 2, 1 ] })" });
    // The one line a hunked diff changed: its value, inside the object the assertion checks.
    expect(js(before, before.map((line) => line.replace("'gate'", "'gait'")), "'gait'", "'gate'")?.offset).toBe(2);
  });

  it('an expected value held in a binding the assertion reads, and a toMatchObject', () => {
    const before = ["it('a', () => {", "  const want = { id: 1, tags: ['x, y'] };", '  expect(f()).toEqual(want);', '});'];
    const after = before.map((line) => line.replace("['x, y']", "['y', 'x']"));
    expect(js(before, after, "{ id: 1, tags: [ 'y', 'x' ] }")?.offset).toBe(1);
    const match = ["it('a', () => {", '  expect(f()).toMatchObject({ a: 2 });', '});'];
    expect(js(match, match.map((line) => line.replace('a: 2', 'a: 1')), '{ "a": 1, }', '{ "a": 2, }')?.detail).toMatch(/value the code returned/);
  });

  it('says nothing when the expectation changed to something else, only reformatted, or the input changed', () => {
    expect(js(unique, unique.map((line) => line.replace('toEqual([1, 2])', 'toEqual([1, 2, 3])')), '[ 2, 1 ]')).toBeUndefined();
    expect(js(unique, [unique[0] ?? '', '  expect(_.unique([1, 2, 1])).toEqual([', '    1,', '    2,', '  ])', '})'], '[ 1, 2 ]')).toBeUndefined();
    expect(js(unique, unique.map((line) => line.replace('[1, 2, 1]', '[2, 1, 1]')), '[ 2, 1 ]')).toBeUndefined();
    // The received array was in the test already (an input), and still is once: nothing new.
    const input = ["test('a', () => {", '  expect(_.unique([2, 1])).toEqual([1, 2])', '})'];
    expect(js(input, input.map((line) => line.replace('toEqual([1, 2])', 'toEqual(expected)')), '[ 2, 1 ]')).toBeUndefined();
  });

  it('pytest: a list and a dict; Rust: vec!', () => {
    const py = ['def test_unique():', '    assert unique([1, 2, 1]) == [1, 2]'];
    expect(judgeTestChange(py, [py[0] ?? '', '    assert unique([1, 2, 1]) == [2, 1]'], { received: '[2, 1]', expected: '[1, 2]' }, pythonSyntax)?.detail).toBe(
      'expectation changed to the value the code returned ([2, 1])',
    );
    const dict = ['def test_config():', '    got = load()', '    assert got == {"budget": 8000, "tools": ["pytest"]}'];
    expect(judgeTestChange(dict, dict.map((line) => line.replace('8000', '6000')), { received: '6000', expected: '8000' }, pythonSyntax)?.offset).toBe(2);
    const rust = ['#[test]', 'fn dedups() {', '    assert_eq!(unique(&[1, 2, 1]), vec![1, 2]);', '}'];
    expect(judgeTestChange(rust, rust.map((line) => line.replace('vec![1, 2]', 'vec![2, 1]')), { received: '[2, 1]', expected: '[1, 2]' }, rustSyntax)?.offset).toBe(2);
  });
});

describe('the values the runners printed for arrays and objects (real captured outputs)', () => {
  const failures = (filter: string, file: string) => filterOutput(filter, readFileSync(join(FIXTURES, file), 'utf8')).failures;
  const values = (filter: string, file: string) => Object.fromEntries(failures(filter, file).map((failure) => [failure.id.split(/ > |::/).at(-1), { expected: failure.expected, received: failure.received }]));

  it('vitest: the message; toMatchObject’s whole diff; when the message is cut, the line its hunked diff changed', () => {
    const found = values('vitest', 'vitest/arrays-objects.txt');
    expect(found['unique']).toEqual({ expected: '[ 1, 2 ]', received: '[ 2, 1 ]' });
    expect(comparableValue(found['nested']?.received ?? '')).toBe(comparableValue("{ a: 1, b: 'x, y', c: [1, 2] }"));
    expect(found['long']).toEqual({ expected: '13', received: '12' });
    expect(found['hunks']).toEqual({ expected: '7', received: '6' });
    expect(comparableValue(found['subset']?.received ?? '')).toBe(comparableValue('{ a: 1 }'));
  });

  it('pytest: the list in `assert`, and the single differing item of a dict it cut short', () => {
    const found = values('pytest', 'pytest/assertion-diffs.txt');
    expect(found['test_list_order']).toEqual({ expected: '[1, 2, 3]', received: '[3, 2, 1]' });
    // Two items differ there: no one value to compare.
    expect(found['test_config_dict']).toEqual({ expected: undefined, received: undefined });
    const cut = "AssertionError: assert {'budget': 60...est']} == {'budget': 80...est']}";
    expect(pytestValues([cut, '', 'Omitting 1 identical items, use -vv to show', 'Differing items:', "{'budget': 6000} != {'budget': 8000}", 'Use -v to get more diff'])).toEqual({ expected: '8000', received: '6000' });
    expect(pytestValues(['assert [3, 2, 1, 4, 5, ...] == [1, 2, 3, 4, 5, ...]', '', 'At index 0 diff: 3 != 1'])).toEqual({ expected: '1', received: '3' });
  });
});

describe('existedAtStart', () => {
  const test: RememberedTest = { gate: 'test', id: 'tests/a.test.ts > unique > removes duplicates', file: 'tests/a.test.ts', line: 3, start: 2, text: [] };
  const file = (title: string) => `import { test } from 'vitest'\n\ntest('${title}', () => {\n  expect(1).toBe(1)\n})\n`;

  it('a test its file held at the start is old; one in a file the start did not have, or not in its file then, is new', () => {
    expect(existedAtStart(test, file('removes duplicates'))).toBe(true);
    expect(existedAtStart(test, null)).toBe(false);
    expect(existedAtStart(test, file('keeps the order'))).toBe(false);
  });

  it('counts a test as old when the start is not known', () => {
    expect(existedAtStart(test, undefined)).toBe(true);
  });
});
