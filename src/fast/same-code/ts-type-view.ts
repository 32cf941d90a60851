import type * as Typescript from 'typescript';

type Ts = typeof Typescript;

// Comments a type checker reads: `@ts-ignore`/`@ts-expect-error`/`@ts-nocheck`/`@ts-check`,
// triple-slash references, JSX pragmas, and `@internal` (stripInternal drops it from declarations a
// project reference type-checks against).
const TS_DIRECTIVE = /@ts-|\/\/\/\s*<|@jsx|@internal/;
// In JavaScript, checkJs reads types from JSDoc: every `/**` comment counts there.
const JS_DIRECTIVE = /@ts-|\/\/\/\s*<|@jsx|@internal|\/\*\*/;
const NEXT_LINE = /@ts-(?:ignore|expect-error)/;

/**
 * Whether a type checker (tsc) reads two versions of a JavaScript or TypeScript module alike: the
 * same syntax tree down to every token (JSDoc set aside), and every comment it reads as a directive
 * the same, in the same place, with the lines around it the same (`@ts-ignore` is about the next
 * line). Comments, whitespace and line breaks elsewhere do not count; types do.
 */
export function sameToTsc(ts: Ts, fileName: string, before: string, after: string): boolean {
  if (before === after) return true;
  const kind = scriptKind(ts, fileName);
  const directive = kind === ts.ScriptKind.JS || kind === ts.ScriptKind.JSX ? JS_DIRECTIVE : TS_DIRECTIVE;
  try {
    const a = view(ts, fileName, before, kind, directive);
    const b = view(ts, fileName, after, kind, directive);
    return a !== undefined && b !== undefined && a.tokens.length === b.tokens.length && a.tokens.every((token, index) => token === b.tokens[index]) && sameList(a.directives, b.directives);
  } catch {
    return false; // a tree too deep to walk: not known to be the same
  }
}

interface View {
  /** Each token's kind and text, in order. */
  tokens: string[];
  /** Each directive comment where it stands, with the lines around it for those about the next line. */
  directives: string[];
}

function view(ts: Ts, fileName: string, text: string, kind: Typescript.ScriptKind, directive: RegExp): View | undefined {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  // A syntax error: what the checker makes of it is not known to be the same.
  if (((file as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics ?? []).length > 0) return undefined;
  const tokens: string[] = [];
  const directives: string[] = [];
  let end = 0;
  const visit = (node: Typescript.Node): void => {
    const children = node.getChildren(file).filter((child) => child.kind < ts.SyntaxKind.FirstJSDocNode || child.kind > ts.SyntaxKind.LastJSDocNode);
    if (children.length > 0) {
      for (const child of children) visit(child);
      return;
    }
    const start = node.getStart(file);
    const gap = text.slice(end, start);
    // `@ts-ignore` and `@ts-expect-error` are about the next line: that line's layout counts too.
    if (directive.test(gap)) directives.push(`${tokens.length}\0${gap}\0${NEXT_LINE.test(gap) ? `${lineBefore(text, end)}\0${linesAfter(text, start)}` : ''}`);
    tokens.push(`${node.kind}\0${text.slice(start, node.end)}`);
    end = node.end;
  };
  visit(file);
  return { tokens, directives };
}

function scriptKind(ts: Ts, fileName: string): Typescript.ScriptKind {
  if (/\.tsx$/.test(fileName)) return ts.ScriptKind.TSX;
  if (/\.[cm]?ts$/.test(fileName)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(fileName)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

/** The text from the start of the line holding `at` up to it. */
function lineBefore(text: string, at: number): string {
  return text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
}

/** The text from `at` to the end of the line after it. */
function linesAfter(text: string, at: number): string {
  const first = text.indexOf('\n', at);
  if (first === -1) return text.slice(at);
  const second = text.indexOf('\n', first + 1);
  return text.slice(at, second === -1 ? text.length : second);
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
