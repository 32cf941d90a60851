import { closingLine } from '../test-span.js';
import type { Span, Strength, TestSyntax } from './types.js';
import { braceBody } from './brace-body.js';

// cargo test: `#[test] fn name() { … }`, the assert macros.

const ASSERTION = /(?<![\w.])(?:debug_)?assert(?:_eq|_ne|_matches)?!\s*\(|(?<![\w.])prop_assert(?:_eq|_ne)?!\s*\(/g;
const MACRO = /(?<![\w.])((?:debug_)?assert(?:_eq|_ne|_matches)?|prop_assert(?:_eq|_ne)?)!\s*\((.*)$/;
const TRIVIAL = /^(?:0|0\.0|true|false|None|""|Vec::new\(\)|vec!\[\])$/;

function matcherOf(line: string): Strength | undefined {
  const macro = MACRO.exec(line);
  if (!macro) return undefined;
  const name = (macro[1] ?? '').replace(/^debug_|^prop_/, '');
  if (name === 'assert_eq' || name === 'assert_matches') return { kind: 'strong', name };
  if (name === 'assert_ne') return { kind: 'weak', name };
  // `assert!(a == b)` pins a value; `assert!(x.is_ok())`, `assert!(n > 0)` do not.
  const condition = macro[2] ?? '';
  const equal = /^(.*?)\s==\s(.*?)(?:,|\);?\s*$)/.exec(condition);
  if (equal && !TRIVIAL.test((equal[1] ?? '').trim()) && !TRIVIAL.test((equal[2] ?? '').trim())) return { kind: 'strong', name: 'assert ==' };
  return { kind: 'weak', name: 'assert' };
}

/** `fn TITLE(` with the attributes above it (`#[should_panic(expected = …)]` holds a value), to its `}`. */
function findSpan(lines: readonly string[], title: string, near: number): Span | undefined {
  const declared = new RegExp(`^\\s*(?:pub(?:\\([^)]*\\))?\\s+)?(?:async\\s+)?fn\\s+${title.replace(/[^\w]/g, '')}\\s*[<(]`);
  let found: number | undefined;
  const rank = (index: number) => (index + 1 <= near ? near - index - 1 : 1_000_000 + index - near);
  lines.forEach((line, index) => {
    if (declared.test(line) && (found === undefined || rank(index) < rank(found))) found = index;
  });
  if (found === undefined) return undefined;
  let start = found;
  while (start > 0 && /^\s*#\[/.test(lines[start - 1] ?? '')) start--;
  const end = closingLine(lines, found, '{');
  return end === undefined ? undefined : { start, end };
}

const DECLARED = /^(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s/;

export const rustSyntax: TestSyntax = {
  // "calc::tests::adds" → "adds"
  titleOf: (id) => id.split('::').at(-1) ?? id,
  findSpan,
  countAssertions: (line) => line.match(ASSERTION)?.length ?? 0,
  matcherOf,
  bodyOf: (code) => braceBody(code, DECLARED),
  holdsExpectation: (code, index) => /^#\[should_panic/.test(code[index] ?? ''),
};
