import { execGit } from '../git/exec-git.js';
import type { Repo } from '../git/find-repo.js';

/** Paths that differ between two commits; `undefined` when git can't tell (a commit is gone). */
export async function committedPaths(repo: Repo, from: string | null, to: string | null): Promise<string[] | undefined> {
  try {
    if (to === null) return undefined;
    const output =
      from === null
        ? await execGit(repo.root, ['ls-tree', '-r', '-z', '--name-only', to])
        : await execGit(repo.root, ['diff', '--name-only', '-z', '--no-renames', from, to]);
    return output.split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}
