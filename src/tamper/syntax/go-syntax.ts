import { closingLine } from '../test-span.js';
import type { Span, Strength, TestSyntax } from './types.js';
import { braceBody } from './brace-body.js';

// go test: `func TestX(t *testing.T) { … }`; a check is an `if` that guards `t.Errorf`/`t.Fatal`,
// or a testify `assert.X(t, …)` / `require.X(t, …)`.

const ASSERTION = /(?<![\w.])(?:t|tb|b|f)\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(|(?<![\w.])(?:assert|require)\.[A-Z]\w*\s*\(/g;
const TESTIFY = /(?<![\w.])(?:assert|require)\.([A-Z]\w*)\s*\(/;
const WEAK_TESTIFY = new Set([
  'NotNil', 'NotEmpty', 'NotZero', 'True', 'False', 'NoError', 'Error', 'Nil', 'Empty', 'Zero', 'NotEqual', 'NotEqualValues', 'NotPanics',
  'Condition', 'Eventually', 'Never', 'Implements', 'IsType', 'NotContains', 'NotSame', 'NotSubset', 'Positive', 'Negative',
]);
const GUARD = /^(?:\}\s*else\s+)?if\s+(?:[^;{]*;\s*)?(.+?)\s*\{/;
/** Compares with a real value: reflect.DeepEqual, go-cmp, bytes/strings helpers, errors.Is. */
const DEEP = /\b(?:reflect\.DeepEqual|cmp\.(?:Diff|Equal)|bytes\.Equal|slices\.Equal|maps\.Equal|strings\.(?:Contains|HasPrefix|HasSuffix|EqualFold)|errors\.(?:Is|As))\s*\(/;
const TRIVIAL = /^(?:nil|0|0\.0|""|``|true|false|len\(.+\))$/;
const COMPARISON = /\s(==|!=|<=|>=|<|>)\s/;
const DECLARED = /^func\s+(?:Test|Example|Fuzz|Benchmark)\w*\s*\(/;

function matcherOf(line: string): Strength | undefined {
  const testify = TESTIFY.exec(line)?.[1];
  if (testify) return { kind: WEAK_TESTIFY.has(testify) ? 'weak' : 'strong', name: testify };
  const condition = GUARD.exec(line)?.[1];
  if (condition === undefined) return undefined;
  const name = condition.length > 40 ? `${condition.slice(0, 40)}…` : condition;
  if (DEEP.test(condition)) return { kind: 'strong', name };
  const comparison = COMPARISON.exec(condition);
  if (!comparison) return { kind: 'weak', name };
  const left = condition.slice(0, comparison.index).trim();
  const right = condition.slice(comparison.index + comparison[0].length).trim();
  return { kind: TRIVIAL.test(left) || TRIVIAL.test(right) ? 'weak' : 'strong', name };
}

/** Go test functions are unique in a package: no line to be near. */
function findSpan(lines: readonly string[], title: string): Span | undefined {
  const declared = new RegExp(`^func\\s+${title.replace(/[^\w]/g, '')}\\s*\\(`);
  const start = lines.findIndex((line) => declared.test(line));
  if (start === -1) return undefined;
  const end = closingLine(lines, start, '{');
  return end === undefined ? undefined : { start, end };
}

export const goSyntax: TestSyntax = {
  // "example.com/m/calc.TestSum/two_and_three" → "TestSum": a subtest is judged with its function.
  titleOf: (id) => /(?:^|\.)((?:Test|Example|Fuzz|Benchmark)[\p{L}\p{N}_]*)(?=\/|$)/u.exec(id)?.[1] ?? id,
  findSpan,
  countAssertions: (line) => line.match(ASSERTION)?.length ?? 0,
  matcherOf,
  bodyOf: (code) => braceBody(code, DECLARED),
  holdsExpectation(code, index) {
    const line = code[index] ?? '';
    // An `if` whose block fails the test, or a row of a table of cases.
    if (GUARD.test(line)) return goSyntax.countAssertions(code[index + 1] ?? '') > 0;
    return /^\{.*\},?$/.test(line) || /^\w+:\s+[^{]+,$/.test(line);
  },
};
