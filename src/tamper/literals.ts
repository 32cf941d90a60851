// Literal values compared across the runner's printout and the source: 4_800_000, 4800000 and
// "4800000" printed bare by mocha are the same number; 'ab', "ab" and `ab` the same string;
// Python's True and Go's nil the same as true and null; Rust's 5i32 is 5.

const NUMBER = String.raw`-?\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?(?:n|_?[iuf](?:8|16|32|64|128|size))?`;
const LITERAL = new RegExp(
  String.raw`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|${'`'}(?:[^${'`'}\\$]|\\.)*${'`'}|(?<![\w$.])${NUMBER}(?![\w$])|\b(?:true|false|null|undefined|NaN|True|False|None|nil)\b`,
  'g',
);
const KEYWORDS: Record<string, string> = { True: 'true', False: 'false', None: 'null', nil: 'null' };

/** A value as the runner printed it, made comparable; `undefined` for objects, arrays and anything not a plain literal. */
export function canonicalValue(printed: string): string | undefined {
  const text = printed.trim().replace(/,$/, '');
  if (/^(?:'.*'|".*"|`.*`)$/s.test(text)) return `s:${unquote(text.slice(1, -1))}`;
  if (new RegExp(`^${NUMBER}$`, 'i').test(text)) return `n:${Number(text.replace(/_?[iuf](?:8|16|32|64|128|size)$|[_n]/g, ''))}`;
  if (/^(?:true|false|null|undefined|NaN|True|False|None|nil)$/.test(text)) return `k:${KEYWORDS[text] ?? text}`;
  if (/^[[{(]|^\w+ \{|^\[\w+/.test(text) || text === '') return undefined;
  return `s:${text}`;
}

/** The plain literals on a line, made comparable. */
export function literalsOf(line: string): string[] {
  return [...line.matchAll(LITERAL)].map((match) => canonicalValue(match[0])).filter((value): value is string => value !== undefined);
}

function unquote(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}
