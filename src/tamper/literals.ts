// Literal values compared across the runner's printout and the source: 4_800_000, 4800000 and
// "4800000" printed bare by mocha are the same number; 'ab', "ab" and `ab` the same string;
// Python's True and Go's nil the same as true and null; Rust's 5i32 is 5. Arrays, objects, tuples
// and sets are in structured-values.ts.

export const NUMBER = String.raw`-?\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?(?:n|_?[iuf](?:8|16|32|64|128|size))?`;
export const STRING = String.raw`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|${'`'}(?:[^${'`'}\\$]|\\.)*${'`'}`;
export const KEYWORD = String.raw`\b(?:true|false|null|undefined|NaN|Infinity|True|False|None|nil)\b`;
const LITERAL = new RegExp(String.raw`${STRING}|(?<![\w$.])${NUMBER}(?![\w$])|${KEYWORD}`, 'g');
const KEYWORDS: Record<string, string> = { True: 'true', False: 'false', None: 'null', nil: 'null' };

/** A plain value as the runner printed it, made comparable; `undefined` for objects, arrays and anything not a plain literal. */
export function canonicalValue(printed: string): string | undefined {
  const text = printed.trim().replace(/,$/, '');
  if (/^(?:'.*'|".*"|`.*`)$/s.test(text)) return `s:${unquote(text.slice(1, -1))}`;
  if (new RegExp(`^${NUMBER}$`, 'i').test(text)) return `n:${Number(text.replace(/_?[iuf](?:8|16|32|64|128|size)$|[_n]/g, ''))}`;
  if (/^(?:true|false|null|undefined|NaN|Infinity|True|False|None|nil)$/.test(text)) return `k:${KEYWORDS[text] ?? text}`;
  if (/^[[{(]|^\w+ \{|^\[\w+/.test(text) || text === '') return undefined;
  return `s:${text}`;
}

/** A plain literal written in code, where it is: `end` is exclusive; `string` for a quoted one. */
export interface PlainLiteral {
  value: string;
  start: number;
  end: number;
  string: boolean;
}

/** The plain literals in a piece of code, made comparable. */
export function plainLiteralsIn(code: string): PlainLiteral[] {
  const found: PlainLiteral[] = [];
  for (const match of code.matchAll(LITERAL)) {
    const value = canonicalValue(match[0]);
    if (value !== undefined) found.push({ value, start: match.index, end: match.index + match[0].length, string: /^['"`]/.test(match[0]) });
  }
  return found;
}

/** The plain literals on a line, made comparable. */
export function literalsOf(line: string): string[] {
  return plainLiteralsIn(line).map((literal) => literal.value);
}

function unquote(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}
