// Literal values compared across the runner's printout and the source: 4_800_000, 4800000 and
// "4800000" printed bare by mocha are the same number; 'ab', "ab" and `ab` the same string.

const LITERAL = /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\$]|\\.)*`|(?<![\w$.])-?\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?n?(?![\w$])|\b(?:true|false|null|undefined|NaN)\b/g;

/** A value as the runner printed it, made comparable; `undefined` for objects, arrays and anything not a plain literal. */
export function canonicalValue(printed: string): string | undefined {
  const text = printed.trim().replace(/,$/, '');
  if (/^(?:'.*'|".*"|`.*`)$/s.test(text)) return `s:${unquote(text.slice(1, -1))}`;
  if (/^-?\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?n?$/i.test(text)) return `n:${Number(text.replace(/[_n]/g, ''))}`;
  if (/^(?:true|false|null|undefined|NaN)$/.test(text)) return `k:${text}`;
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
