import { createHash } from 'node:crypto';
import type * as Typescript from 'typescript';

type Ts = typeof Typescript;

/**
 * A module cut into the functions a change can be placed in (`units`) and everything else (the
 * skeleton: module-level code, signatures, what no unit holds). Two versions with the same
 * skeleton differ only inside the bodies of units, which line up by index. Hashes are of the
 * syntax alone, as Python's are of `ast.dump`: a comment, JSDoc or layout is no change.
 */
export interface ModuleUnits {
  /** Hash of the text with each unit's body blanked. */
  skeleton: string;
  /** Each unit, in source order: the name V8 reports for it, and its body's hash. */
  units: Array<{ name: string; body: string }>;
}

/** The extensions whose functions TypeScript's parser can place. */
export const PARSED = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/**
 * The units of a JavaScript or TypeScript module: the outermost functions whose name V8 reports
 * for certain — functions with a name of their own, methods and accessors with a plain key, and a
 * function or arrow that initialises a variable or an object property (the language names those). A function
 * named any other way (a class field, an assignment, a callback, a constructor) is no unit: a
 * change in it is a change to the skeleton, which the record can't place. Undefined: not parsed.
 */
export function findUnits(ts: Ts, fileName: string, text: string): ModuleUnits | undefined {
  let file: Typescript.SourceFile;
  try {
    file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  } catch {
    return undefined;
  }
  // A syntax error: the parser's recovery could cut a function anywhere.
  const broken = (file as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics;
  if (broken === undefined || broken.length > 0) return undefined;
  const bodies = new Map<Typescript.Node, string>();
  const visit = (node: Typescript.Node): void => {
    const name = unitName(ts, node);
    const body = (node as { body?: Typescript.Node }).body;
    if (name !== undefined && body !== undefined) {
      bodies.set(body, name);
      return;
    }
    ts.forEachChild(node, visit);
  };
  try {
    visit(file);
    const units = [...bodies].map(([body, name]) => ({ name, body: hash(syntaxOf(ts, file, body)) }));
    return { skeleton: hash(syntaxOf(ts, file, file, bodies)), units };
  } catch {
    return undefined; // a tree too deep to walk
  }
}

/**
 * A node's syntax: each token's kind and text, nested in the kinds of the nodes that hold them
 * (so `return\n1` and `return 1` differ, as automatic semicolons make them), without comments,
 * JSDoc or layout; each of `cut`'s nodes (the units' bodies) stands as one mark.
 */
function syntaxOf(ts: Ts, file: Typescript.SourceFile, node: Typescript.Node, cut?: ReadonlyMap<Typescript.Node, string>): string {
  const parts: string[] = [];
  const write = (at: Typescript.Node): void => {
    if (cut?.has(at)) {
      parts.push('\u0000');
      return;
    }
    if (at.kind >= ts.SyntaxKind.FirstJSDocNode && at.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = at.getChildren(file);
    if (children.length === 0) {
      parts.push(`${at.kind}:${JSON.stringify(at.getText(file))}`);
      return;
    }
    parts.push(`(${at.kind}`);
    for (const child of children) write(child);
    parts.push(')');
  };
  write(node);
  return parts.join(' ');
}

function unitName(ts: Ts, node: Typescript.Node): string | undefined {
  if (ts.isFunctionDeclaration(node)) return node.name?.text;
  if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) return keyName(ts, node.name);
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return undefined;
  if (ts.isFunctionExpression(node) && node.name) return node.name.text;
  const { parent } = node;
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && parent.initializer === node && ts.isObjectLiteralExpression(parent.parent)) return keyName(ts, parent.name);
  return undefined;
}

function keyName(ts: Ts, key: Typescript.PropertyName): string | undefined {
  if (ts.isIdentifier(key) || ts.isStringLiteral(key) || ts.isPrivateIdentifier(key)) return key.text;
  return undefined;
}

/**
 * The source name V8's `functionName` stands for: accessors are reported as `get x`, and a function
 * with an inferred name as `Owner.x`. Undefined for the names V8 makes up (`<instance_members_initializer>`).
 */
export function sourceName(v8Name: string): string | undefined {
  if (v8Name === '' || v8Name.startsWith('<')) return undefined;
  const plain = v8Name.replace(/^[gs]et /, '');
  return plain.slice(plain.lastIndexOf('.') + 1);
}

export function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
