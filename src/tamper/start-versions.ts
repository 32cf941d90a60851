import { execGit } from '../git/exec-git.js';
import type { ChangeSet } from '../plan/select-gates.js';
import type { Snapshot } from '../snapshot/snapshot.js';

/**
 * A file as the turn found it: its text; `null` when it was not there; `undefined` when that is
 * not known (no baseline, a file already edited at the start, whose text then was not kept) or the
 * turn did not change it.
 */
export type StartVersion = string | null | undefined;

/**
 * The versions at the turn's start of `files` (relative to the repository root): from the baseline
 * commit, for each file the turn changed that had no local changes at the start. One `git ls-tree`,
 * then a `git show` per file the commit has. Only at a block, and only for the failing tests' files.
 */
export async function readStartVersions(root: string, baseline: Snapshot | undefined, change: ChangeSet, files: readonly string[]): Promise<Map<string, StartVersion>> {
  const versions = new Map<string, StartVersion>();
  const changed = new Set(change.paths);
  const wanted = baseline ? files.filter((file) => (change.all || changed.has(file)) && baseline.files[file] === undefined) : [];
  if (!baseline || wanted.length === 0) return versions;
  const { head } = baseline;
  if (head === null) {
    for (const file of wanted) versions.set(file, null);
    return versions;
  }
  const listed = new Set((await execGit(root, ['ls-tree', '-z', '--name-only', head, '--', ...wanted])).split('\0'));
  await Promise.all(wanted.map(async (file) => versions.set(file, listed.has(file) ? await execGit(root, ['show', `${head}:${file}`]) : null)));
  return versions;
}
