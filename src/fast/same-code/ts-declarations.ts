import type * as Typescript from 'typescript';

type Ts = typeof Typescript;

/**
 * Whether two versions of a TypeScript module declare the same types: the same syntax tree down to
 * every token (comments and layout aside), except inside the bodies of functions, methods and
 * accessors whose return type is written out, and of constructors — no type outside such a body
 * depends on it. A type test (vitest's `*.test-d.ts`) that reaches the module checks the same
 * declarations either way; what the body itself type-checks to is the type checker's to say.
 * JavaScript (whose types are inferred), declaration files and anything unparsed: false.
 */
export function sameDeclarations(ts: Ts, fileName: string, before: string, after: string): boolean {
  if (!/\.[cm]?tsx?$/.test(fileName) || /\.d\.[cm]?ts$/.test(fileName)) return false;
  if (before === after) return true;
  try {
    const a = skeleton(ts, fileName, before);
    const b = skeleton(ts, fileName, after);
    return a !== undefined && b !== undefined && a.length === b.length && a.every((token, index) => token === b[index]);
  } catch {
    return false; // a tree too deep to walk: not known to be the same
  }
}

/** Each token's kind and text, in order, with each typed body one token. */
function skeleton(ts: Ts, fileName: string, text: string): string[] | undefined {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  if (((file as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics ?? []).length > 0) return undefined;
  const tokens: string[] = [];
  const visit = (node: Typescript.Node): void => {
    const children = node.getChildren(file).filter((child) => child.kind < ts.SyntaxKind.FirstJSDocNode || child.kind > ts.SyntaxKind.LastJSDocNode);
    if (children.length > 0) {
      const body = typedBody(ts, node);
      for (const child of children) {
        if (child === body) tokens.push('body');
        else visit(child);
      }
      return;
    }
    tokens.push(`${node.kind}\0${text.slice(node.getStart(file), node.end)}`);
  };
  visit(file);
  return tokens;
}

/** The body of a function-like node whose type does not come from it: a constructor's or setter's, or one under a written-out return type. */
function typedBody(ts: Ts, node: Typescript.Node): Typescript.Node | undefined {
  if (ts.isConstructorDeclaration(node) || ts.isSetAccessorDeclaration(node)) return node.body;
  const typed = ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node);
  return typed && node.type !== undefined ? node.body : undefined;
}
