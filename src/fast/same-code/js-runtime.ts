import type * as Typescript from 'typescript';
import { requireFromProject } from '../project-module.js';

type Ts = typeof Typescript;

/** The extensions whose runtime code TypeScript's transpiler can compare. */
export const JS_FAMILY = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/**
 * The project's own TypeScript, as its tools would load it from `cwd`; undefined when there is none
 * or it has no transpiler API (TypeScript 7's native package may not). Loaded only when a change
 * might be comments, formatting or types alone: it is several megabytes.
 */
export function loadTypescript(cwd: string): Ts | undefined {
  return requireFromProject<Ts>(cwd, 'typescript', ['transpileModule', 'createSourceFile']);
}

/**
 * Whether two versions of a JavaScript or TypeScript module run the same code: each is transpiled
 * with the same fixed options (types and comments removed, every import kept as written, decorator
 * metadata emitted so that a type a decorator records is code), and the two outputs are parsed and
 * compared token by token, trivia left out. So comments, whitespace, formatting, type annotations,
 * interfaces and `import type` do not count; anything that reaches the emitted JavaScript does.
 */
export function sameJsRuntime(ts: Ts, fileName: string, before: string, after: string): boolean {
  if (before === after) return true;
  const first = emit(ts, fileName, before);
  const second = emit(ts, fileName, after);
  if (first === undefined || second === undefined) return false;
  if (first === second) return true;
  const kind = /x$/.test(fileName) ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  const parse = (text: string) => ts.createSourceFile(fileName.replace(JS_FAMILY, kind === ts.ScriptKind.JSX ? '.jsx' : '.js'), text, ts.ScriptTarget.Latest, false, kind);
  const a = parse(first);
  const b = parse(second);
  try {
    return sameTokens({ jsxText: ts.SyntaxKind.JsxText, string: ts.SyntaxKind.StringLiteral }, { node: a, file: a }, { node: b, file: b });
  } catch {
    return false; // a tree too deep to walk: not known to be the same
  }
}

function emit(ts: Ts, fileName: string, text: string): string | undefined {
  try {
    const output = ts.transpileModule(text, {
      fileName,
      reportDiagnostics: true,
      compilerOptions: {
        target: ts.ScriptTarget.ESNext,
        module: ts.ModuleKind.ESNext,
        jsx: ts.JsxEmit.Preserve,
        removeComments: true,
        // Every value import kept as written: an import only types use still loads its module.
        verbatimModuleSyntax: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        useDefineForClassFields: true,
        sourceMap: false,
        inlineSourceMap: false,
      },
    });
    // A syntax error: what runs (if anything) is not known to be the same.
    const broken = (output.diagnostics ?? []).some((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error && diagnostic.code < 2000);
    return broken ? undefined : output.outputText;
  } catch {
    return undefined;
  }
}

interface Kinds {
  jsxText: Typescript.SyntaxKind;
  string: Typescript.SyntaxKind;
}

interface At {
  node: Typescript.Node;
  file: Typescript.SourceFile;
}

/** The same syntax tree down to every token's text: node kinds, flags (let/const), tokens. */
function sameTokens(kinds: Kinds, a: At, b: At): boolean {
  if (a.node.kind !== b.node.kind || a.node.flags !== b.node.flags) return false;
  if (a.node.kind === kinds.jsxText) return jsxTextValue(a.node.getFullText(a.file)) === jsxTextValue(b.node.getFullText(b.file));
  const childrenA = a.node.getChildren(a.file);
  const childrenB = b.node.getChildren(b.file);
  if (childrenA.length !== childrenB.length) return false;
  if (childrenA.length === 0) return a.node.kind === kinds.string ? sameString(a.node.getText(a.file), b.node.getText(b.file)) : a.node.getText(a.file) === b.node.getText(b.file);
  return childrenA.every((child, index) => {
    const other = childrenB[index];
    return other !== undefined && sameTokens(kinds, { node: child, file: a.file }, { node: other, file: b.file });
  });
}

/** `'a'` and `"a"` are one string; with an escape in either, only the same spelling is (`'use\x20strict'` is no directive). */
function sameString(a: string, b: string): boolean {
  if (a === b) return true;
  return !a.includes('\\') && !b.includes('\\') && a.slice(1, -1) === b.slice(1, -1);
}

/**
 * The string a piece of JSX text becomes: each line trimmed where it meets a line break, lines left
 * empty dropped, the rest joined by one space (React's and Babel's rule). Text with no line break
 * keeps every space.
 */
export function jsxTextValue(text: string): string {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length === 1) return text;
  return lines
    .map((line, index) => {
      let kept = index === 0 ? line : line.replace(/^[ \t]+/, '');
      if (index < lines.length - 1) kept = kept.replace(/[ \t]+$/, '');
      return kept;
    })
    .filter((line) => line !== '')
    .join(' ');
}
