import { requireFromProject } from '../project-module.js';
import { stripJsComments } from '../strip-js-comments.js';

interface Esbuild {
  transformSync(code: string, options: Record<string, unknown>): { code: string };
}

/** The project's own esbuild (a Vite or tsx project has one), loaded from `cwd`; undefined when there is none. */
export function loadEsbuild(cwd: string): Esbuild | undefined {
  return requireFromProject<Esbuild>(cwd, 'esbuild', ['transformSync']);
}

// esbuild does not emit decorator metadata: a decorated file's types may be code, so it is not decided.
const DECORATOR = /@[A-Za-z_$]/;

/**
 * Whether two versions of a module run the same code, by esbuild (for a project whose TypeScript has
 * no transpiler API: TypeScript 7): esbuild prints what it parsed in a form of its own — comments,
 * types and layout gone, every value import kept — so the same code prints the same text.
 */
export function sameByEsbuild(esbuild: Esbuild, fileName: string, before: string, after: string): boolean {
  if (before === after) return true;
  if (DECORATOR.test(stripJsComments(before)) || DECORATOR.test(stripJsComments(after))) return false;
  const loader = /\.[cm]?tsx?$/.test(fileName) ? (fileName.endsWith('x') ? 'tsx' : 'ts') : fileName.endsWith('x') ? 'jsx' : 'js';
  const print = (code: string) =>
    esbuild.transformSync(code, {
      loader,
      format: 'esm',
      target: 'esnext',
      jsx: 'preserve',
      legalComments: 'none',
      sourcemap: false,
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
    }).code;
  try {
    return print(before) === print(after);
  } catch {
    return false; // a syntax error: not known to be the same
  }
}
