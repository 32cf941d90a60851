import type { Span, Strength, TestSyntax } from './types.js';

// pytest and unittest: `def test_x():` bodies by indentation, `assert` statements and
// `self.assertX(` methods, `pytest.raises(`.

const ASSERTION = /^assert\b|(?<![\w.])self\.assert\w+\s*\(|(?<![\w.])self\.fail\s*\(|(?<![\w.])pytest\.(?:raises|warns|fail)\s*\(/g;
const METHOD = /(?<![\w.])self\.(assert\w+)\s*\(/;
const WEAK_METHODS = new Set(['assertTrue', 'assertFalse', 'assertIsNotNone', 'assertIsNone', 'assertIsInstance', 'assertNotIsInstance', 'assertNotEqual', 'assertNotIn', 'assertNotAlmostEqual', 'assertIsNot']);
/** A value that says only that there is one: comparing with it pins nothing. */
const TRIVIAL = /^(?:None|True|False|0|0\.0|''|""|\[\]|\{\}|\(\)|set\(\))$/;
const COMPARISON = /\s(==|!=|<=|>=|<|>|not in|in|is not|is)\s/;

function matcherOf(line: string): Strength | undefined {
  const method = METHOD.exec(line)?.[1];
  if (method) return { kind: WEAK_METHODS.has(method) ? 'weak' : 'strong', name: method };
  if (/(?<![\w.])pytest\.raises\s*\(/.test(line)) return { kind: 'strong', name: 'pytest.raises' };
  const statement = /^assert\s+(.*?)(?:,\s*f?["'].*)?$/.exec(line)?.[1];
  if (statement === undefined) return undefined;
  const condition = statement.replace(/^\(|\)$/g, '').trim();
  if (/^isinstance\s*\(/.test(condition)) return { kind: 'weak', name: 'isinstance' };
  const comparison = COMPARISON.exec(` ${condition} `);
  if (!comparison) return { kind: 'weak', name: 'truthiness' };
  const operator = comparison[1] ?? '';
  const right = condition.slice((comparison.index ?? 0) + operator.length + 1).trim();
  const left = condition.slice(0, Math.max(0, (comparison.index ?? 0) - 1)).trim();
  if (TRIVIAL.test(right) || TRIVIAL.test(left)) return { kind: 'weak', name: `${operator} ${TRIVIAL.test(right) ? right : left}` };
  return { kind: operator === '!=' || operator.startsWith('not') || operator === 'is not' ? 'weak' : 'strong', name: operator };
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * `def TITLE(` closest to `near`, with the decorators above it (a `parametrize` list holds
 * expected values), to the last line indented under it.
 */
function findSpan(lines: readonly string[], title: string, near: number): Span | undefined {
  const declared = new RegExp(`^\\s*(?:async\\s+)?def\\s+${title.replace(/[^\p{L}\p{N}_]/gu, '')}\\s*\\(`, 'u');
  let found: number | undefined;
  const rank = (index: number) => (index + 1 <= near ? near - index - 1 : 1_000_000 + index - near);
  lines.forEach((line, index) => {
    if (declared.test(line) && (found === undefined || rank(index) < rank(found))) found = index;
  });
  if (found === undefined) return undefined;
  const indent = indentOf(lines[found] ?? '');
  let start = found;
  for (let index = found - 1; index >= 0; index--) {
    const line = lines[index] ?? '';
    const text = line.trim();
    if (text === '') break;
    if (indentOf(line) === indent && text.startsWith('@')) start = index;
    else if (!(indentOf(line) > indent || (indentOf(line) === indent && /^[)\]}]/.test(text)))) break;
  }
  const header = headerEnd(lines, found);
  let end = header;
  for (let index = header + 1; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (line.trim() === '') continue;
    if (indentOf(line) <= indent) break;
    end = index;
  }
  return { start, end };
}

/** The line a `def`'s signature ends on (its `:`); the `def` line itself for a one-line test. */
function headerEnd(lines: readonly string[], def: number): number {
  for (let index = def; index < Math.min(lines.length, def + 20); index++) {
    const code = (lines[index] ?? '').replace(/\s+#.*$/, '').trimEnd();
    if (code.endsWith(':')) return index;
  }
  return def;
}

export const pythonSyntax: TestSyntax = {
  // "tests/test_a.py::TestSum::test_adds[2-3]" → "test_adds"
  titleOf: (id) => (id.split('::').at(-1) ?? id).replace(/\[.*$/, ''),
  findSpan,
  countAssertions: (line) => line.match(ASSERTION)?.length ?? 0,
  matcherOf,
  bodyOf(code) {
    const def = Math.max(0, code.findIndex((line) => /^(?:async\s+)?def\s/.test(line)));
    const header = code.findIndex((line, index) => index >= def && line.replace(/\s+#.*$/, '').endsWith(':'));
    return { from: header === -1 ? code.length : header + 1, to: code.length };
  },
  // Lines above the `def` are its decorators: a `parametrize` list's rows are the expected values.
  holdsExpectation: (code, index) => index < code.findIndex((line) => /^(?:async\s+)?def\s/.test(line)),
};
