import { isDeclaration } from './test-declarations.js';

const MAX_SCAN = 400;

/**
 * Where a test is in a file: the declaration line naming `title` closest to `near` (1-based), and
 * the line its call closes on. 0-based, inclusive. Brackets in strings and `//` comments are
 * skipped; regex literals are not parsed (a bracket in one can make the span wrong, never throws).
 */
export function findTestSpan(lines: readonly string[], title: string, near: number): { start: number; end: number } | undefined {
  if (title === '') return undefined;
  const quoted = [`'${title}`, `"${title}`, `\`${title}`];
  let start: number | undefined;
  lines.forEach((line, index) => {
    if (!isDeclaration(line)) return;
    const text = line.replace(/\\(['"`])/g, '$1');
    if (!quoted.some((form) => text.includes(form))) return;
    // The declaration above the failing line is the test's; below it only when there is none above.
    const rank = (candidate: number) => (candidate + 1 <= near ? near - candidate - 1 : 1_000_000 + candidate - near);
    if (start === undefined || rank(index) < rank(start)) start = index;
  });
  if (start === undefined) return undefined;
  const end = closingLine(lines, start, '([{');
  return end === undefined ? undefined : { start, end };
}

/**
 * The line where the bracket that first opens at or after `start` closes; only `opening` brackets
 * open (`{` for a Go or Rust function, whose parameter list closes on its first line).
 */
export function closingLine(lines: readonly string[], start: number, opening: string): number | undefined {
  let depth = 0;
  let opened = false;
  let quote: string | undefined;
  let inBlock = false;
  for (let index = start; index < Math.min(lines.length, start + MAX_SCAN); index++) {
    const line = lines[index] ?? '';
    for (let at = 0; at < line.length; at++) {
      const char = line[at];
      if (inBlock) {
        if (char === '*' && line[at + 1] === '/') {
          inBlock = false;
          at++;
        }
        continue;
      }
      if (quote) {
        if (char === '\\') at++;
        else if (char === quote) quote = undefined;
        continue;
      }
      if (char === '/' && line[at + 1] === '/') break;
      if (char === '/' && line[at + 1] === '*') {
        inBlock = true;
        at++;
      } else if (char === "'" || char === '"' || char === '`') quote = char;
      else if (char === '(' || char === '{' || char === '[') {
        if (!opened && !opening.includes(char)) continue;
        depth++;
        opened = true;
      } else if (char === ')' || char === '}' || char === ']') {
        if (!opened) continue;
        depth--;
        if (opened && depth <= 0) return index;
      }
    }
    // A plain string cannot span lines; only a template literal can.
    if (quote !== '`') quote = undefined;
  }
  return undefined;
}
