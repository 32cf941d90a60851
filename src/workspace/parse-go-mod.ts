/** One directive of a go.mod or go.work; each entry of a factored block is one, with the block's verb. */
export interface GoDirective {
  verb: string;
  args: string[];
  line: number;
}

/**
 * The directives of a go.mod or go.work (https://go.dev/ref/mod#go-mod-file-grammar): `//`
 * comments, "quoted" and `raw` strings, and factored blocks `verb ( … )`. Throws an Error naming
 * the line when a block or a string is not closed.
 */
export function parseGoModFile(text: string): GoDirective[] {
  const directives: GoDirective[] = [];
  let block: { verb: string; line: number } | undefined;
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r?\n|\r/);
  for (const [index, source] of lines.entries()) {
    const line = index + 1;
    const [verb, ...args] = tokenize(source, line);
    if (verb === undefined) continue;
    if (block) {
      if (verb === ')') block = undefined;
      else directives.push({ verb: block.verb, args: [verb, ...args], line });
    } else if (args.length === 1 && args[0] === '(') {
      block = { verb, line };
    } else if (args[0] === '(' && args.at(-1) === ')') {
      // `use ( ./a )` on one line; `use ()` holds nothing.
      if (args.length > 2) directives.push({ verb, args: args.slice(1, -1), line });
    } else {
      directives.push({ verb, args, line });
    }
  }
  if (block) throw new Error(`line ${block.line}: the "${block.verb} (" block has no closing )`);
  return directives;
}

const WORD = /[^\s()"`]+/y;

function tokenize(source: string, line: number): string[] {
  const tokens: string[] = [];
  let index = 0;
  while (index < source.length) {
    const char = source.charAt(index);
    if (source.startsWith('//', index)) break;
    if (/\s/.test(char)) {
      index += 1;
    } else if (char === '(' || char === ')') {
      tokens.push(char);
      index += 1;
    } else if (char === '"' || char === '`') {
      const end = closingQuote(source, index);
      if (end < 0) throw new Error(`line ${line}: a string with no closing ${char}`);
      const literal = source.slice(index, end + 1);
      tokens.push(char === '`' ? literal.slice(1, -1) : unquote(literal, line));
      index = end + 1;
    } else {
      WORD.lastIndex = index;
      const word = WORD.exec(source)?.[0] ?? char;
      const comment = word.indexOf('//');
      if (comment >= 0) {
        if (comment > 0) tokens.push(word.slice(0, comment));
        break;
      }
      tokens.push(word);
      index += word.length;
    }
  }
  return tokens;
}

function closingQuote(source: string, start: number): number {
  const quote = source.charAt(start);
  for (let index = start + 1; index < source.length; index++) {
    const char = source.charAt(index);
    if (char === '\\' && quote === '"') index += 1;
    else if (char === quote) return index;
  }
  return -1;
}

function unquote(literal: string, line: number): string {
  try {
    const value: unknown = JSON.parse(literal);
    if (typeof value === 'string') return value;
  } catch {
    // A Go escape JSON lacks (\x41, \a): said below, with the line.
  }
  throw new Error(`line ${line}: gate can't read the string ${literal}`);
}

/** The module path a go.mod declares, or undefined. */
export function goModulePath(directives: GoDirective[]): string | undefined {
  return directives.find((directive) => directive.verb === 'module')?.args[0];
}

/** The first argument of each directive with this verb: `require` → module paths, `use` → folders. */
export function argumentsOf(directives: GoDirective[], verb: 'require' | 'use'): string[] {
  return directives.flatMap((directive) => (directive.verb === verb && directive.args[0] !== undefined ? [directive.args[0]] : []));
}
