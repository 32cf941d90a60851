import { basename, relative } from 'node:path';
import { execGit } from '../../git/exec-git.js';

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
        .flatMap((path) => (family.test(path) ? [path] : snapshotOwner(path, family))),
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
