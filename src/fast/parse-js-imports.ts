import { stripJsComments } from './strip-js-comments.js';

export interface JsImports {
  /** Every module named by a string literal: `import … from`, `import '…'`, `export … from`, `require('…')`, `import('…')`. */
  specifiers: string[];
  /** Any other string literal that reads as a relative path (`'./x'`, `"../lib/y.js"`): proxyquire, `mock.module`, `require.resolve` and the like. */
  relativePaths: string[];
  /** `require(…)` or `import(…)` of something other than a string literal, as written (the first one on each line). */
  computed: string[];
}

const LITERAL = String.raw`(?:'([^'\n\\]*)'|"([^"\n\\]*)"|\x60([^\x60\n\\$]*)\x60)`;
// Matched on the code with every string blanked (a string's words are no import), the literal read
// back at the same offset from the code with its strings.
const BLANKED = String.raw`(?:'[ ]*'|"[ ]*"|\x60[ ]*\x60)`;
const STATIC = [
  new RegExp(String.raw`\bfrom\s*(?=${BLANKED})`, 'g'),
  new RegExp(String.raw`\bimport\s*(?=${BLANKED})`, 'g'),
  new RegExp(String.raw`(?<![.\w$])require\s*\(\s*(?=${BLANKED}\s*\))`, 'g'),
  new RegExp(String.raw`\bimport\s*\(\s*(?=${BLANKED}\s*[,)])`, 'g'),
];
const LITERAL_AT = new RegExp(LITERAL, 'y');
const CALL = /(?<![.\w$])(?:require|import)\s*\(/g;
const LITERAL_ARGUMENT = new RegExp(String.raw`^\s*${LITERAL}\s*[,)]`);
const RELATIVE = /(['"`])(\.\.?\/[^'"`\n$]*)\1/g;

/**
 * The modules a JavaScript or TypeScript file names, read from its code by the tokenizer that
 * blanks comments and strings (`stripJsComments`): a `from "test"` inside a string or a comment is
 * no import. Comments are skipped for the module names, not for the relative paths, where an extra
 * one costs nothing.
 */
export function parseJsImports(source: string): JsImports {
  const code = stripJsComments(source);
  const blanked = stripJsComments(source, { blankStrings: true });
  const specifiers = new Set<string>();
  for (const pattern of STATIC) {
    for (const match of blanked.matchAll(pattern)) {
      LITERAL_AT.lastIndex = match.index + match[0].length;
      const literal = LITERAL_AT.exec(code);
      if (literal) specifiers.add(literal[1] ?? literal[2] ?? literal[3] ?? '');
    }
  }
  specifiers.delete('');
  const relativePaths = new Set<string>();
  for (const match of source.matchAll(RELATIVE)) relativePaths.add(match[2] ?? '');
  const computed: string[] = [];
  for (const match of blanked.matchAll(CALL)) {
    const after = code.slice(match.index + match[0].length, match.index + match[0].length + 300);
    if (!LITERAL_ARGUMENT.test(after)) computed.push(lineAt(code, match.index).trim());
  }
  return { specifiers: [...specifiers], relativePaths: [...relativePaths].filter((path) => !specifiers.has(path)), computed: [...new Set(computed)] };
}

function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? text.length : end).slice(0, 120);
}
