import { execGitBytes } from '../git/exec-git.js';
import type { StartState } from '../start/start-state.js';
import type { Snapshot } from './snapshot.js';

/**
 * Where the text of a path at the change's base can be read: the turn's start tree when the base is
 * the turn's start (its edited files included), else the base commit for a path the base had no
 * local change in. Undefined: not known (an edited file of a base whose text was not kept).
 */
export function baseRevision(base: Snapshot, start: StartState | undefined, path: string): string | undefined {
  if (start?.tree !== undefined && start.digest === base.digest) return start.tree;
  if (path in base.files || base.head === null) return undefined;
  return base.head;
}

/**
 * The texts of `paths` (relative to the repository root) at the change's base: a string, `null` when
 * the base had no such file, `undefined` when not known. Only for the few files of a small change.
 */
export async function readBaseVersions(root: string, base: Snapshot, start: StartState | undefined, paths: readonly string[]): Promise<Map<string, string | null | undefined>> {
  const versions = new Map<string, string | null | undefined>();
  await Promise.all(
    paths.map(async (path) => {
      const revision = baseRevision(base, start, path);
      if (revision === undefined) return versions.set(path, undefined);
      try {
        const bytes = await execGitBytes(root, ['cat-file', 'blob', `${revision}:${path}`]);
        return versions.set(path, bytes.toString('utf8'));
      } catch {
        // No such path in that tree (a file the turn added), or a tree git no longer has.
        return versions.set(path, await hasTree(root, revision) ? null : undefined);
      }
    }),
  );
  return versions;
}

async function hasTree(root: string, revision: string): Promise<boolean> {
  try {
    await execGitBytes(root, ['cat-file', '-e', `${revision}^{tree}`]);
    return true;
  } catch {
    return false;
  }
}
