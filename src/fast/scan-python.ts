export interface ScannedPython {
  /**
   * The code without comments, one logical line per line (bracketed and backslash-continued lines
   * joined), each string literal replaced by `"N"`: its index in `strings`.
   */
  code: string;
  /** The literals' text as written (escapes not decoded); empty for f-strings and bytes. */
  strings: string[];
  /** The f-strings' (and t-strings') text as written, replacement fields included. */
  formatted: string[];
}

const PREFIX = /[rRbBuUfFtT]/;

const [PLAIN, OPEN, CLOSE, NEWLINE, BACKSLASH, HASH, QUOTE] = [0, 1, 2, 3, 4, 5, 6];
// The ASCII characters that matter to the scan, by kind; everything else is PLAIN.
const KIND = new Uint8Array(128);
for (const [chars, kind] of [['([{', OPEN], [')]}', CLOSE], ['\n', NEWLINE], ['\\', BACKSLASH], ['#', HASH], ['"\'', QUOTE]] as const) {
  for (const ch of chars) KIND[ch.charCodeAt(0)] = kind;
}
// Where a literal may end or change state, by quote and f-ness.
const STOPS: Record<string, RegExp> = { '"': /["\\\n]/g, "'": /['\\\n]/g, '"f': /["\\\n{]/g, "'f": /['\\\n{]/g };

/** Separates Python code from its comments and strings, so that the text of neither reads as an import. */
export function scanPython(text: string): ScannedPython {
  const parts: string[] = [];
  const strings: string[] = [];
  const formatted: string[] = [];
  let depth = 0;
  // Text from `copied` up to the current position goes to the code unchanged.
  let copied = 0;
  let i = 0;
  const length = text.length;
  while (i < length) {
    const ch = text.charCodeAt(i);
    const kind = ch < 128 ? KIND[ch] : PLAIN;
    if (kind === PLAIN || (kind === NEWLINE && depth === 0)) {
      i++;
      continue;
    }
    if (kind === OPEN || kind === CLOSE) {
      depth = kind === OPEN ? depth + 1 : Math.max(0, depth - 1);
      i++;
      continue;
    }
    const continuation = kind === BACKSLASH ? (text[i + 1] === '\n' ? 2 : text[i + 1] === '\r' && text[i + 2] === '\n' ? 3 : 0) : 0;
    if (kind === BACKSLASH && continuation === 0) {
      i += 2;
      continue;
    }
    parts.push(text.slice(copied, i));
    if (kind === HASH) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (kind === QUOTE) {
      const literal = readString(text, i);
      strings.push(literal.value);
      if (literal.formatted !== undefined) formatted.push(literal.formatted);
      parts.push(`"${strings.length - 1}"`);
      i = literal.end;
    } else {
      parts.push(' ');
      i += continuation || 1;
    }
    copied = i;
  }
  parts.push(text.slice(copied));
  return { code: parts.join(''), strings, formatted };
}

/** The literal whose quote is at `start` (its prefix letters, if any, are just before it). */
function readString(text: string, start: number): { value: string; end: number; formatted?: string } {
  const prefix = prefixBefore(text, start);
  const formatted = /[fFtT]/.test(prefix);
  const quote = text[start] ?? '"';
  const triple = text.startsWith(quote.repeat(3), start);
  const open = start + (triple ? 3 : 1);
  const stops = STOPS[`${quote}${formatted ? 'f' : ''}`] ?? /["\\\n]/g;
  let i = open;
  for (;;) {
    stops.lastIndex = i;
    const found = stops.exec(text);
    if (!found) return { value: '', end: text.length };
    i = found.index;
    const ch = found[0];
    if (ch === '\\') {
      i += 2;
    } else if (ch === quote) {
      if (!triple || text.startsWith(quote.repeat(3), i)) {
        const value = formatted || /[bB]/.test(prefix) ? '' : text.slice(open, i);
        const end = i + (triple ? 3 : 1);
        return formatted ? { value, end, formatted: text.slice(open, i) } : { value, end };
      }
      i++;
    } else if (ch === '\n') {
      // An unterminated literal: resume at the line's end rather than swallow the file.
      if (!triple) return { value: '', end: i };
      i++;
    } else {
      i = text[i + 1] === '{' ? i + 2 : skipReplacement(text, i + 1);
    }
  }
}

// An f-string's `{expression}`, which may hold brackets and strings of its own.
function skipReplacement(text: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      i = readString(text, i).end;
      continue;
    }
    if (ch === '{' || ch === '(' || ch === '[') depth++;
    else if (ch === '}' || ch === ')' || ch === ']') depth--;
    i++;
    if (depth === 0) return i;
  }
  return i;
}

function prefixBefore(text: string, quote: number): string {
  let start = quote;
  while (start > 0 && quote - start < 2 && PREFIX.test(text[start - 1] ?? '')) start--;
  return start > 0 && /\w/.test(text[start - 1] ?? '') ? '' : text.slice(start, quote);
}
