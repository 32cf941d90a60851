import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { goValues, pytestValues, rustValues } from '../../src/filters/native/native-values.js';
import { findAssertionHelpers } from '../../src/tamper/assertion-helpers.js';
import { judgeTestChange } from '../../src/tamper/judge-test-change.js';
import { canonicalValue, literalsOf } from '../../src/tamper/literals.js';
import { goSyntax } from '../../src/tamper/syntax/go-syntax.js';
import { jsSyntax, jsSyntaxWith } from '../../src/tamper/syntax/js-syntax.js';
import { pythonSyntax } from '../../src/tamper/syntax/python-syntax.js';
import { rustSyntax } from '../../src/tamper/syntax/rust-syntax.js';
import { findTestSpan } from '../../src/tamper/test-span.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/outputs');
const judgeJs = (before: string[], after: string[], received: string | undefined) => judgeTestChange(before, after, received === undefined ? {} : { received }, jsSyntax);

const before = ["  it('converts hours', () => {", '    const ms = toMs("1.5h");', '    expect(ms).toBe(5400000);', '    expect(typeof ms).toBe("number");', '  });'];
const edit = (index: number, line: string | undefined) => before.flatMap((item, at) => (at === index ? (line === undefined ? [] : [line]) : [item]));

describe('judgeTestChange (JavaScript)', () => {
  it('names a literal rewritten to the received value, on the line that has it', () => {
    expect(judgeJs(before, edit(2, '    expect(ms).toBe(4_800_000);'), '4800000')).toEqual({ offset: 2, detail: 'expectation changed to the value the code returned (4800000)' });
    expect(judgeJs(before, edit(2, "    expect(ms).toBe('abc');"), '"abc"')?.detail).toBe('expectation changed to the value the code returned ("abc")');
  });

  it('follows a const the assertion reads', () => {
    const after = [before[0] ?? '', '    const want = 4800000;', '    const ms = toMs("1.5h");', '    expect(ms).toBe(want);', '  });'];
    expect(judgeJs(before, after, '4800000')?.detail).toMatch(/value the code returned/);
  });

  it('does not count a literal that was there before (an unchanged argument)', () => {
    expect(judgeJs(before, edit(2, '    expect(ms).toBe(5400001);'), '1.5h')).toBeUndefined();
  });

  it('names a weakened matcher, a deleted assertion, an emptied body, an early return', () => {
    expect(judgeJs(before, edit(2, '    expect(ms).toBeDefined();'), '4800000')).toEqual({ offset: 2, detail: 'matcher weakened (toBe → toBeDefined)' });
    expect(judgeJs(before, edit(2, '    expect(ms).not.toBeNull();'), undefined)?.detail).toBe('matcher weakened (toBe → not.toBeNull)');
    expect(judgeJs(before, edit(2, '    // expect(ms).toBe(5400000);'), undefined)).toEqual({ offset: 0, detail: 'assertion deleted' });
    expect(judgeJs(before, [before[0] ?? '', '  });'], undefined)).toEqual({ offset: 0, detail: 'test body emptied' });
    expect(judgeJs(before, ["  it('converts hours', () => {});"], undefined)?.detail).toBe('test body emptied');
    expect(judgeJs(before, [before[0] ?? '', '    return;', ...before.slice(1)], undefined)).toEqual({ offset: 1, detail: 'returns at the top of the test, before its assertions' });
  });

  it('node:assert and chai matchers', () => {
    const node = ["it('a', () => {", '  assert.deepStrictEqual(f(), [1]);', '});'];
    expect(judgeJs(node, ["it('a', () => {", '  assert.ok(f());', '});'], undefined)?.detail).toBe('matcher weakened (deepStrictEqual → ok)');
    expect(judgeJs(node, ["it('a', () => {", '  assert(f());', '});'], undefined)?.detail).toBe('matcher weakened (deepStrictEqual → assert)');
    const chai = ["it('a', () => {", '  expect(f()).to.equal(3);', '});'];
    expect(judgeJs(chai, ["it('a', () => {", '  expect(f()).to.exist;', '});'], undefined)?.detail).toBe('matcher weakened (equal → exist)');
  });

  it('says nothing when only the setup changed or the checks got stronger', () => {
    expect(judgeJs(before, edit(1, '    const ms = toMs("90m");'), '4800000')).toBeUndefined();
    expect(judgeJs(before, [...before.slice(0, 4), '    expect(ms).toBeGreaterThan(0);', '  });'], '4800000')).toBeUndefined();
    expect(judgeJs(before, before.map((line) => `  ${line}`), '4800000')).toBeUndefined();
  });
});

describe('assertion helpers (graphql-js)', () => {
  const files: Record<string, string> = {
    'src/__testUtils__/expectJSON.ts': "import { expect } from 'chai';\nexport function expectJSON(actual: unknown) {\n  return {\n    toDeepEqual(expected: unknown) {\n      expect(actual).to.deep.equal(expected);\n    },\n  };\n}\n",
    'src/validation/__tests__/harness.ts': "import { expectJSON } from '../../__testUtils__/expectJSON';\nexport function expectValidationErrors(rule: Rule, query: string) {\n  return expectJSON(validate(rule, query));\n}\nexport function buildSchema(sdl: string) {\n  return parse(sdl);\n}\n",
    'src/jsutils/devAssert.ts': "export function devAssert(condition: unknown, message: string): void {\n  if (!condition) throw new Error(message);\n  assert(condition);\n}\n",
    'src/validation/__tests__/Rule-test.ts': [
      "import { devAssert } from '../../jsutils/devAssert';",
      "import { expectValidationErrors, buildSchema } from './harness';",
      'function expectErrors(queryStr: string) {',
      '  return expectValidationErrors(Rule, queryStr);',
      '}',
      'const expectValid = (queryStr: string) => expectErrors(queryStr).toDeepEqual([]);',
      "describe('Rule', () => {",
      '  function expectValueFrom(',
      '    valueText: string,',
      '  ) {',
      '    return expect(parseValue(valueText));',
      '  }',
      '});',
    ].join('\n'),
  };
  const helpers = findAssertionHelpers('src/validation/__tests__/Rule-test.ts', (path) => files[path]);

  it('finds the functions a test file defines or imports from test code that call expect/assert, through other helpers', () => {
    expect([...helpers].sort()).toEqual(['expectErrors', 'expectValid', 'expectValidationErrors', 'expectValueFrom']);
  });

  it('counts a call of one as an assertion: a rewrite through it is found, a weakening too', () => {
    const syntax = jsSyntaxWith(helpers);
    const test = ["  it('parses', () => {", "    expectValueFrom('[1]').to.deep.equal([1]);", "    expectErrors('{ a }').toDeepEqual(['unknown a']);", '  });'];
    const rewritten = [test[0] ?? '', "    expectValueFrom('[1]').to.deep.equal([2]);", test[2] ?? '', test[3] ?? ''];
    expect(judgeTestChange(test, rewritten, { received: '[ 2 ]' }, jsSyntax)).toBeUndefined();
    expect(judgeTestChange(test, rewritten, { received: '[ 2 ]' }, syntax)).toEqual({ offset: 1, detail: 'expectation changed to the value the code returned ([ 2 ])' });
    const weakened = [test[0] ?? '', test[1] ?? '', "    expect(validate('{ a }')).to.exist;", test[3] ?? ''];
    expect(judgeTestChange(test, weakened, {}, syntax)).toEqual({ offset: 2, detail: 'matcher weakened (expectErrors → exist)' });
    expect(judgeTestChange(test, [test[0] ?? '', test[1] ?? '', test[3] ?? ''], {}, syntax)).toEqual({ offset: 0, detail: 'assertion deleted' });
  });
});

describe('findTestSpan', () => {
  const file = ["describe('a', () => {", "  it('adds', () => {", "    expect(sum('(', 1)).toBe(1); // )", '  });', "  it('adds', () => {", '  });', '});'];
  it('takes the declaration above the failing line, and ends where its call closes', () => {
    expect(findTestSpan(file, 'adds', 3)).toEqual({ start: 1, end: 3 });
    expect(findTestSpan(file, 'adds', 6)).toEqual({ start: 4, end: 5 });
    expect(findTestSpan(file, 'subtracts', 3)).toBeUndefined();
  });
});

describe('literals', () => {
  it('makes printed and written values comparable', () => {
    expect(canonicalValue('4800000')).toBe(canonicalValue('4_800_000'));
    expect(canonicalValue("'ab'")).toBe(canonicalValue('"ab"'));
    expect(canonicalValue('{ a: 1 }')).toBeUndefined();
    expect(literalsOf('expect(sum(1, -2)).toBe("x")')).toEqual(['n:1', 'n:-2', 's:x']);
  });
});

describe('the values the Python, Go and Rust runners printed (real captured outputs)', () => {
  const failures = (filter: string, file: string) => filterOutput(filter, readFileSync(join(FIXTURES, file), 'utf8')).failures;
  const pick = (filter: string, file: string, id: string) => failures(filter, file).find((failure) => failure.id === id);

  it('pytest: the two sides of `assert a == b`', () => {
    expect(pick('pytest', 'pytest/assertion-diffs.txt', 'tests/test_calc.py::test_adds_large')).toMatchObject({ file: 'tests/test_calc.py', line: 13, expected: '23', received: '22' });
    expect(pick('pytest', 'pytest/assertion-diffs.txt', 'tests/test_calc.py::test_message')).toMatchObject({ expected: "'hello, world'", received: "'hello world'" });
  });

  it("go test: the style guide's `= got, want x`, with the file as Go names it", () => {
    expect(pick('go-test', 'go-test/failures.txt', 'example.com/shop/calc.TestAddLarge')).toMatchObject({ file: 'calc_test.go', line: 16, expected: '23', received: '22' });
    expect(pick('go-test', 'go-test/failures-verbose.txt', 'example.com/shop/calc.TestDiscount/rounding')).toMatchObject({ expected: '6.6', received: '6.7' });
  });

  it("cargo test: assert_eq!'s left and right", () => {
    expect(pick('cargo-test', 'cargo-test/failures.txt', 'api::restock_zero_is_identity')).toMatchObject({ file: 'tests/api.rs', line: 13, expected: '1', received: '0' });
    expect(pick('cargo-test', 'cargo-test/failures.txt', 'limits::overflow_panics')?.received).toBeUndefined();
  });

  it('forms the captures do not have: unittest, testify, got/want, the old Rust format', () => {
    expect(pytestValues(['AssertionError: 6 != 5 : totals differ'])).toEqual({ expected: '5', received: '6' });
    expect(goValues(['    calc_test.go:9: ', '        \tError:      \tNot equal: ', '        \t            \texpected: 5', '        \t            \tactual  : 6'])).toEqual({ expected: '5', received: '6' });
    expect(goValues(['    calc_test.go:9: got 6, want 5'])).toEqual({ expected: '5', received: '6' });
    expect(goValues(['    calc_test.go:9: expected 5 but got 6'])).toEqual({ expected: '5', received: '6' });
    expect(rustValues(['assertion failed: `(left == right)`', '  left: `6`,', ' right: `5`'])).toEqual({ expected: '5', received: '6' });
  });
});

describe('judgeTestChange (Python)', () => {
  const before = ['@pytest.mark.parametrize("a,b,want", [(2, 3, 5)])', 'def test_adds(a, b, want):', '    result = add(a, b)', '    assert isinstance(result, int)', '    assert result == want'];
  const judge = (after: string[], printed = {}) => judgeTestChange(before, after, printed, pythonSyntax);
  const edit = (index: number, line: string) => before.map((item, at) => (at === index ? line : item));

  it('finds the test by its node id, with its decorators, to its last indented line', () => {
    const file = ['import pytest', '', ...before, '', 'def test_other():', '    pass'];
    expect(pythonSyntax.titleOf('tests/test_calc.py::TestCalc::test_adds[2-3-5]')).toBe('test_adds');
    expect(pythonSyntax.findSpan(file, 'test_adds', 7)).toEqual({ start: 2, end: 6 });
  });

  it('names a parametrize row rewritten to the received value, a weakened assert, an emptied body', () => {
    expect(judge(edit(0, '@pytest.mark.parametrize("a,b,want", [(2, 3, 6)])'), { expected: '5', received: '6' })).toEqual({ offset: 0, detail: 'expectation changed to the value the code returned (6)' });
    expect(judge(edit(4, '    assert result'))).toEqual({ offset: 4, detail: 'matcher weakened (== → truthiness)' });
    expect(judge(edit(4, '    assert result is not None'))?.detail).toBe('matcher weakened (== → is not None)');
    expect(judge([...before.slice(0, 2), '    pass'])).toEqual({ offset: 1, detail: 'test body emptied' });
    expect(judge([...before.slice(0, 2), '    """Later."""'])?.detail).toBe('test body emptied');
  });

  it('takes the side of `assert a == b` the test had not written as what the code returned', () => {
    const reversed = ['def test_adds():', '    assert 5 == add(2, 3)'];
    expect(judgeTestChange(reversed, ['def test_adds():', '    assert 6 == add(2, 3)'], { expected: '6', received: '5' }, pythonSyntax)?.detail).toBe(
      'expectation changed to the value the code returned (6)',
    );
  });

  it('unittest methods', () => {
    const method = ['def test_adds(self):', '    self.assertEqual(add(2, 3), 5)'];
    expect(judgeTestChange(method, ['def test_adds(self):', '    self.assertTrue(add(2, 3))'], {}, pythonSyntax)?.detail).toBe('matcher weakened (assertEqual → assertTrue)');
  });
});

describe('judgeTestChange (Go)', () => {
  const before = ['func TestSum(t *testing.T) {', '\tif got, want := Sum(2, 3), 5; got != want {', '\t\tt.Fatalf("got %d, want %d", got, want)', '\t}', '}'];
  const judge = (after: string[], printed = {}) => judgeTestChange(before, after, printed, goSyntax);

  it('judges a subtest with its function, whose braces close its span', () => {
    expect(goSyntax.titleOf('example.com/m/calc.TestSum/two_and_three')).toBe('TestSum');
    expect(goSyntax.titleOf('example.com/m/v2.TestSum')).toBe('TestSum');
    expect(goSyntax.findSpan(['package calc', '', ...before, '', 'func TestOther(t *testing.T) {}'], 'TestSum', 5)).toEqual({ start: 2, end: 6 });
  });

  it('names a want rewritten in the guard, a table row, testify weakened, an emptied body', () => {
    expect(judge(before.map((line) => line.replace(', 5;', ', 6;')), { expected: '5', received: '6' })).toEqual({ offset: 1, detail: 'expectation changed to the value the code returned (6)' });
    const table = ['func TestSum(t *testing.T) {', '\tfor _, c := range []struct{ a, b, want int }{', '\t\t{2, 3, 5},', '\t} {', '\t\tif got := Sum(c.a, c.b); got != c.want {', '\t\t\tt.Errorf("Sum = %d, want %d", got, c.want)', '\t\t}', '\t}', '}'];
    expect(judgeTestChange(table, table.map((line) => line.replace('{2, 3, 5}', '{2, 3, 6}')), { expected: '5', received: '6' }, goSyntax)?.offset).toBe(2);
    const testify = ['func TestSum(t *testing.T) {', '\tassert.Equal(t, 5, Sum(2, 3))', '}'];
    expect(judgeTestChange(testify, ['func TestSum(t *testing.T) {', '\tassert.NotZero(t, Sum(2, 3))', '}'], {}, goSyntax)?.detail).toBe('matcher weakened (Equal → NotZero)');
    expect(judge(['func TestSum(t *testing.T) {', '\t// later', '}'])).toEqual({ offset: 0, detail: 'test body emptied' });
  });
});

describe('judgeTestChange (Rust)', () => {
  const before = ['#[test]', 'fn adds() {', '    let result = sum(2, 3);', '    assert_eq!(result, 5);', '}'];
  const judge = (after: string[], printed = {}) => judgeTestChange(before, after, printed, rustSyntax);

  it('finds `fn name` with its attributes, to its closing brace', () => {
    expect(rustSyntax.titleOf('calc::tests::adds')).toBe('adds');
    expect(rustSyntax.findSpan(['mod tests {', '    use super::*;', ...before.map((line) => `    ${line}`), '}'], 'adds', 6)).toEqual({ start: 2, end: 6 });
  });

  it('names the literal rewritten (either side of assert_eq!), assert_eq! weakened, a deleted assert', () => {
    expect(judge(before.map((line) => line.replace(', 5)', ', 6)')), { expected: '5', received: '6' })).toEqual({ offset: 3, detail: 'expectation changed to the value the code returned (6)' });
    const flipped = before.map((line) => line.replace('assert_eq!(result, 5)', 'assert_eq!(5, result)'));
    expect(judgeTestChange(flipped, flipped.map((line) => line.replace('(5,', '(6,')), { expected: '6', received: '5' }, rustSyntax)?.detail).toBe('expectation changed to the value the code returned (6)');
    expect(judge(before.map((line) => line.replace('assert_eq!(result, 5)', 'assert!(result > 0)')))).toEqual({ offset: 3, detail: 'matcher weakened (assert_eq → assert)' });
    expect(judge(before.filter((line) => !line.includes('assert')))).toEqual({ offset: 1, detail: 'assertion deleted' });
  });

  it('says nothing when only the setup changed', () => {
    expect(judge(before.map((line) => line.replace('sum(2, 3)', 'sum(3, 2)')), { expected: '5', received: '6' })).toBeUndefined();
  });
});

// What is caught and what is not, per language, for the same moves (the counts in docs/tamper-guard.md).
describe('the known misses, kept honest', () => {
  const cases: { name: string; syntax: typeof jsSyntax; before: string[]; misses: string[][] }[] = [
    {
      name: 'JavaScript',
      syntax: jsSyntax,
      before: ["it('adds', () => {", '  expect(sum(2, 3)).toBe(5);', '});'],
      misses: [
        ["it('adds', () => {", '  expect(sum(2, 3)).toBe(EXPECTED);', '});'],
        ["it('adds', () => {", '  expect(sum(2, 3)).toBe(7);', '});'],
        ["it('adds', () => {", '  if (false) expect(sum(2, 3)).toBe(5);', '});'],
      ],
    },
    {
      name: 'Python',
      syntax: pythonSyntax,
      before: ['def test_adds():', '    assert add(2, 3) == 5'],
      misses: [
        ['def test_adds():', '    assert add(2, 3) == EXPECTED'],
        ['def test_adds():', '    assert add(2, 3) == 7'],
        ['def test_adds():', '    if False:', '        assert add(2, 3) == 5'],
      ],
    },
    {
      name: 'Go',
      syntax: goSyntax,
      before: ['func TestSum(t *testing.T) {', '\tif got := Sum(2, 3); got != 5 {', '\t\tt.Errorf("got %d", got)', '\t}', '}'],
      misses: [
        ['func TestSum(t *testing.T) {', '\tif got := Sum(2, 3); got != expected {', '\t\tt.Errorf("got %d", got)', '\t}', '}'],
        ['func TestSum(t *testing.T) {', '\tif got := Sum(2, 3); got != 7 {', '\t\tt.Errorf("got %d", got)', '\t}', '}'],
        ['func TestSum(t *testing.T) {', '\tif got := Sum(2, 3); false && got != 5 {', '\t\tt.Errorf("got %d", got)', '\t}', '}'],
      ],
    },
    {
      name: 'Rust',
      syntax: rustSyntax,
      before: ['fn adds() {', '    assert_eq!(sum(2, 3), 5);', '}'],
      misses: [
        ['fn adds() {', '    assert_eq!(sum(2, 3), EXPECTED);', '}'],
        ['fn adds() {', '    assert_eq!(sum(2, 3), 7);', '}'],
        ['fn adds() {', '    if false { assert_eq!(sum(2, 3), 5); }', '}'],
      ],
    },
  ];

  it.each(cases)('$name: an expected value moved to a constant, rewritten to another value, or put behind `if false`', ({ syntax, before, misses }) => {
    for (const after of misses) expect(judgeTestChange(before, after, { expected: '5', received: '6' }, syntax)).toBeUndefined();
  });
});
