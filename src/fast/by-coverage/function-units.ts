import { createHash } from 'node:crypto';
import type * as Typescript from 'typescript';

type Ts = typeof Typescript;

/**
 * A module cut into the functions a change can be placed in (`units`) and everything else (the
 * skeleton: module-level code, signatures, what no unit holds). Two versions with the same
 * skeleton differ only inside the bodies of units, which line up by index.
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
  const bodies: Array<{ name: string; start: number; end: number }> = [];
  const visit = (node: Typescript.Node): void => {
    const name = unitName(ts, node);
    const body = (node as { body?: Typescript.Node }).body;
    if (name !== undefined && body !== undefined) {
      bodies.push({ name, start: body.getStart(file), end: body.getEnd() });
      return;
    }
    ts.forEachChild(node, visit);
  };
  try {
    visit(file);
  } catch {
    return undefined; // a tree too deep to walk
  }
  let skeleton = '';
  let at = 0;
  for (const body of bodies) {
    skeleton += `${text.slice(at, body.start)}\u0000`;
    at = body.end;
  }
  skeleton += text.slice(at);
  return { skeleton: hash(skeleton), units: bodies.map((body) => ({ name: body.name, body: hash(text.slice(body.start, body.end)) })) };
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
