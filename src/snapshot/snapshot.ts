import { fastHash } from '../hash/fast-hash.js';

/**
 * The state of a work tree as gate compares it: the commit checked out, and a fingerprint of every
 * path that differs from it (tracked edits, staged, deleted, untracked but not ignored).
 */
export interface Snapshot {
  head: string | null;
  files: Record<string, string>;
  digest: string;
}

export function makeSnapshot(head: string | null, files: Record<string, string>): Snapshot {
  let text = head ?? '(initial)';
  for (const path of Object.keys(files).sort()) text += `\0${path}\0${files[path]}`;
  return { head, files, digest: fastHash(text) };
}

/** A baseline meaning "the commit, with no local changes". */
export function headSnapshot(head: string | null): Snapshot {
  return makeSnapshot(head, {});
}

/**
 * Paths whose content differs between two snapshots. When the commit moved, the caller passes the
 * paths that differ between the two commits; `undefined` there means they could not be compared,
 * and then every path counts (`all`).
 */
export function changedPaths(
  base: Snapshot,
  now: Snapshot,
  committed: string[] | undefined,
): { paths: string[]; all: boolean } {
  const paths = new Set<string>();
  for (const path of Object.keys(now.files)) {
    if (base.files[path] !== now.files[path]) paths.add(path);
  }
  for (const path of Object.keys(base.files)) {
    if (!(path in now.files)) paths.add(path);
  }
  if (base.head !== now.head) {
    if (committed === undefined) return { paths: [...paths].sort(), all: true };
    for (const path of committed) paths.add(path);
  }
  return { paths: [...paths].sort(), all: false };
}

export function isSnapshot(value: unknown): value is Snapshot {
  if (typeof value !== 'object' || value === null) return false;
  const { head, files, digest } = value as Record<string, unknown>;
  return (
    (head === null || typeof head === 'string') &&
    typeof digest === 'string' &&
    typeof files === 'object' &&
    files !== null &&
    Object.values(files).every((fingerprint) => typeof fingerprint === 'string')
  );
}
