import { fastHash } from '../hash/fast-hash.js';
import { execGit, execGitBytes } from '../git/exec-git.js';

/** Past this many paths, nothing is compared: each costs a git call. */
const MOST_PATHS = 200;

/**
 * Of `paths`, those whose content at commit `head` is exactly the fingerprint a snapshot took of
 * them in the work tree (`missing`: not in the commit either). Only a content hash compares — not a
 * size-and-time stand-in, a link or a folder — and any doubt leaves the path out.
 */
export async function samePathsAt(root: string, head: string, paths: string[], files: Record<string, string>): Promise<Set<string>> {
  const same = new Set<string>();
  if (paths.length === 0 || paths.length > MOST_PATHS) return same;
  try {
    const listed = new Set((await execGit(root, ['ls-tree', '-r', '-z', '--name-only', head, '--', ...paths])).split('\0').filter(Boolean));
    for (const path of paths) {
      const fingerprint = files[path];
      if (!listed.has(path)) {
        if (fingerprint === 'missing') same.add(path);
        continue;
      }
      if (fingerprint === undefined || fingerprint.includes(':') || fingerprint === 'missing' || fingerprint === 'dir') continue;
      if (fastHash(await execGitBytes(root, ['cat-file', 'blob', `${head}:${path}`])) === fingerprint) same.add(path);
    }
  } catch {
    return new Set();
  }
  return same;
}
