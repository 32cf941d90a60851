import { JS_FAMILY, loadTypescript, sameJsRuntime } from './js-runtime.js';
import { loadEsbuild, sameByEsbuild } from './esbuild-runtime.js';
import { mayRunTheSame } from './may-run-the-same.js';
import { samePythonAst } from './python-ast.js';
import { samePythonToTypeCheckers } from './python-type-view.js';
import { sameToTsc } from './ts-type-view.js';

export interface Versions {
  /** relative to the repository root */
  path: string;
  before: string;
  after: string;
}

/**
 * The paths whose two versions run the same code: JavaScript and TypeScript by their emitted code
 * (with the TypeScript the project has from `cwd`, else its esbuild; neither: not known), Python by
 * its syntax tree.
 * Anything else, or anything that cannot be decided, is left out: it counts as changed code.
 */
export async function sameCode(files: readonly Versions[], tools: { cwd: string; python: string }): Promise<string[]> {
  const js = files.filter((file) => JS_FAMILY.test(file.path) && mayRunTheSame(file.before, file.after));
  const python = files.filter((file) => file.path.endsWith('.py'));
  const same: string[] = [];
  const ts = js.length > 0 ? loadTypescript(tools.cwd) : undefined;
  // TypeScript 7's package has no transpiler API: then the project's esbuild, if it has one.
  const esbuild = js.length > 0 && ts === undefined ? loadEsbuild(tools.cwd) : undefined;
  if (ts) same.push(...js.filter((file) => sameJsRuntime(ts, file.path, file.before, file.after)).map((file) => file.path));
  else if (esbuild) same.push(...js.filter((file) => sameByEsbuild(esbuild, file.path, file.before, file.after)).map((file) => file.path));
  const answers = await samePythonAst(tools.python, python.map((file) => [file.before, file.after] as const), tools.cwd);
  same.push(...python.filter((_, index) => answers[index] === true).map((file) => file.path));
  return same;
}

/**
 * The paths whose two versions a type checker reads alike: they differ in comments and layout only,
 * none of them a directive to it (JavaScript and TypeScript by the project's TypeScript parser,
 * Python by its syntax tree and comments). Anything else, or not decided, is left out.
 */
export async function sameToTypeCheckers(files: readonly Versions[], tools: { cwd: string; python: string }): Promise<string[]> {
  const js = files.filter((file) => JS_FAMILY.test(file.path));
  const python = files.filter((file) => /\.pyi?$/.test(file.path));
  const ts = js.length > 0 ? loadTypescript(tools.cwd) : undefined;
  const same = ts ? js.filter((file) => sameToTsc(ts, file.path, file.before, file.after)).map((file) => file.path) : [];
  const answers = await samePythonToTypeCheckers(tools.python, python.map((file) => [file.before, file.after] as const), tools.cwd);
  return [...same, ...python.filter((_, index) => answers[index] === true).map((file) => file.path)];
}
