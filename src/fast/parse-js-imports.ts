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
const STATIC = [
  new RegExp(String.raw`\bfrom\s*${LITERAL}`, 'g'),
  new RegExp(String.raw`\bimport\s*${LITERAL}`, 'g'),
  new RegExp(String.raw`(?<![.\w$])require\s*\(\s*${LITERAL}\s*\)`, 'g'),
  new RegExp(String.raw`\bimport\s*\(\s*${LITERAL}\s*[,)]`, 'g'),
];
const CALL = /(?<![.\w$])(?:require|import)\s*\(/g;
const LITERAL_ARGUMENT = new RegExp(String.raw`^\s*${LITERAL}\s*[,)]`);
const RELATIVE = /(['"`])(\.\.?\/[^'"`\n$]*)\1/g;

/**
 * The modules a JavaScript or TypeScript file names, read from its text: no parser, so what it
 * finds is a superset (a `from '…'` inside a string counts too), which can only select more tests.
 * Comments are skipped for the module names, not for the relative paths, where an extra one costs nothing.
 */
export function parseJsImports(source: string): JsImports {
  const code = stripJsComments(source);
  const specifiers = new Set<string>();
  for (const pattern of STATIC) {
    for (const match of code.matchAll(pattern)) specifiers.add(match[1] ?? match[2] ?? match[3] ?? '');
  }
  specifiers.delete('');
  const relativePaths = new Set<string>();
  for (const match of source.matchAll(RELATIVE)) relativePaths.add(match[2] ?? '');
  const computed: string[] = [];
  for (const match of code.matchAll(CALL)) {
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
