// After one of these a `/` starts a regular expression, not a division.
const BEFORE_REGEX = new Set('(,=:[!&|?{};~+-*%<>^'.split(''));
const SPECIAL = /[/'"`{}]/g;
const KEYWORDS_BEFORE_REGEX = /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await|instanceof)$/;

/**
 * JavaScript or TypeScript (or JSONC) with its comments blanked: the newlines stay, so line numbers
 * hold; strings, template literals and regular expressions are kept as they are, so a `//` or
 * `/*` inside them is not taken for a comment. With `blankStrings`, the text inside quotes and
 * template literals is blanked too (the quotes and a template's `${…}` code stay, every offset
 * holds): what is left is code alone, where a pattern cannot match a string's words.
 */
export function stripJsComments(source: string, { blankStrings = false }: { blankStrings?: boolean } = {}): string {
  let out = '';
  let i = 0;
  // The brace depth at each `${` still open, so that its `}` resumes the template literal.
  const templates: number[] = [];
  let depth = 0;
  const copyUntil = (end: number) => {
    out += source.slice(i, end);
    i = end;
  };
  // A literal from its opening character (kept) to `end`, its closing quote or `${` kept too.
  const copyLiteral = (end: number, close: number) => {
    if (!blankStrings) return copyUntil(end);
    out += source.charAt(i) + source.slice(i + 1, end - close).replace(/[^\n]/g, ' ') + source.slice(end - close, end);
    i = end;
  };
  while (i < source.length) {
    const char = source.charAt(i);
    const next = source.charAt(i + 1);
    if (char === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      out += ' '.repeat((end === -1 ? source.length : end) - i);
      i = end === -1 ? source.length : end;
    } else if (char === '/' && next === '*') {
      const close = source.indexOf('*/', i + 2);
      const end = close === -1 ? source.length : close + 2;
      out += source.slice(i, end).replace(/[^\n]/g, ' ');
      i = end;
    } else if (char === "'" || char === '"') {
      const end = endOfQuoted(source, i, char);
      copyLiteral(end, source.charAt(end - 1) === char && end - 1 > i ? 1 : 0);
    } else if (char === '`' || (char === '}' && templates.at(-1) === depth)) {
      if (char === '}') templates.pop();
      const end = endOfTemplatePart(source, i + 1);
      const opens = source.startsWith('${', end - 2) && end - 2 > i;
      if (opens) templates.push(depth);
      copyLiteral(end, opens ? 2 : source.charAt(end - 1) === '`' && end - 1 > i ? 1 : 0);
    } else if (char === '/' && startsRegex(out)) {
      copyUntil(endOfRegex(source, i));
    } else {
      if (char === '{') depth++;
      else if (char === '}') depth--;
      SPECIAL.lastIndex = i + 1;
      copyUntil(SPECIAL.exec(source)?.index ?? source.length);
    }
  }
  return out;
}

function endOfQuoted(source: string, start: number, quote: string): number {
  for (let i = start + 1; i < source.length; i++) {
    const char = source.charAt(i);
    if (char === '\\') i++;
    else if (char === quote || char === '\n') return i + 1;
  }
  return source.length;
}

/** From inside a template literal: just past its closing backtick, or past the next `${`. */
function endOfTemplatePart(source: string, start: number): number {
  for (let i = start; i < source.length; i++) {
    const char = source.charAt(i);
    if (char === '\\') i++;
    else if (char === '`') return i + 1;
    else if (char === '$' && source.charAt(i + 1) === '{') return i + 2;
  }
  return source.length;
}

function endOfRegex(source: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < source.length; i++) {
    const char = source.charAt(i);
    if (char === '\\') i++;
    else if (char === '\n') return i;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '/' && !inClass) return i + 1;
  }
  return source.length;
}

function startsRegex(before: string): boolean {
  let end = before.length;
  while (end > 0 && /\s/.test(before.charAt(end - 1))) end--;
  const last = before.charAt(end - 1);
  return last === '' || BEFORE_REGEX.has(last) || KEYWORDS_BEFORE_REGEX.test(before.slice(Math.max(0, end - 12), end));
}
