import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { execGit } from '../../git/exec-git.js';
import { stripJsComments } from '../strip-js-comments.js';
import { JS_FAMILY } from './js-runtime.js';

/**
 * The files under `cwd` (tracked or untracked, not ignored; relative to the repository root) of the
 * runner's language that name one of `paths` by its file name: a test that reads a source file as
 * text, or checks a stack trace's file and line, sees comments and layout too. A snapshot file names
 * its test. Undefined when git could not be asked: then nothing is known not to read them.
 */
export async function namedAsText(root: string, cwd: string, paths: readonly string[], family: RegExp): Promise<string[] | undefined> {
  const names = [...new Set(paths.map((path) => basename(path)))];
  const where = relative(root, cwd) || '.';
  let listed: string;
  try {
    listed = await execGit(root, ['grep', '-l', '-z', '-F', '--untracked', ...names.flatMap((name) => ['-e', name]), '--', where]);
  } catch (error) {
    // git grep exits 1, saying nothing, when no file matches.
    if (error instanceof Error && /exited with 1$/.test(error.message)) return [];
    return undefined;
  }
  const changed = new Set(paths);
  return [
    ...new Set(
      listed
        .split('\0')
        .filter((path) => path !== '' && !changed.has(path))
        .flatMap((path) => (family.test(path) ? (readsAsText(root, path, names) ? [path] : []) : snapshotOwner(path, family))),
    ),
  ].sort();
}

/** `__snapshots__/sum.test.ts.snap` is `sum.test.ts`'s (jest, vitest). */
function snapshotOwner(path: string, family: RegExp): string[] {
  const match = /^(.*\/)?__snapshots__\/([^/]+)\.snap$/.exec(path);
  if (!match) return [];
  const test = `${match[1] ?? ''}${match[2] ?? ''}`;
  return family.test(test) ? [test] : [];
}

// Where a module names another to load it: the import graph's business, not reading it as text.
const SPECIFIER = /\b(?:from|import|require)\s*\(?\s*(['"])[^'"\n]*\1/g;

/**
 * Whether a JavaScript or TypeScript file names one of `names` other than in a comment or an
 * import, export or require of it (a barrel's `export * from './x.ts'` loads the module, whose code
 * is the same). Any other file, or one that can't be read, counts as naming it.
 */
function readsAsText(root: string, path: string, names: readonly string[]): boolean {
  if (!JS_FAMILY.test(path)) return true;
  let text: string;
  try {
    text = readFileSync(join(root, path), 'utf8');
  } catch {
    return true;
  }
  const code = stripJsComments(text).replace(SPECIFIER, '');
  return names.some((name) => code.includes(name));
}
