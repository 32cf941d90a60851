import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execGit } from '../git/exec-git.js';
import { parseStatus } from '../git/parse-status.js';
import { fsPath } from '../git/path-bytes.js';
import type { Repo } from '../git/find-repo.js';
import { fastHash } from '../fast-hash.js';
import { makeSnapshot, type Snapshot } from './snapshot.js';

const HASH_FILE_LIMIT = 4 * 1024 * 1024;
// Past these, files are fingerprinted by size and mtime: a huge untracked build folder that is
// not ignored must not make every stop read it all.
const HASH_TOTAL_LIMIT = 64 * 1024 * 1024;
const HASH_COUNT_LIMIT = 5000;
export const UNTRACKED_HINT_THRESHOLD = 1000;

export interface TakenSnapshot {
  snapshot: Snapshot;
  /** Untracked files that are not ignored, and the top folder most of them are in. */
  untracked: { count: number; mostlyIn: string | undefined };
}

/** One `git status`, then a content fingerprint of each path it lists. */
export async function takeSnapshot(repo: Repo): Promise<TakenSnapshot> {
  const output = await execGit(repo.root, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--no-renames']);
  const status = parseStatus(output);
  const files: Record<string, string> = {};
  const budget = { bytes: HASH_TOTAL_LIMIT, count: HASH_COUNT_LIMIT };
  const folders = new Map<string, number>();
  let untracked = 0;
  for (const entry of status.entries) {
    files[entry.path] = fingerprint(join(repo.root, entry.path), budget);
    if (entry.from !== undefined) files[entry.from] = fingerprint(join(repo.root, entry.from), budget);
    if (entry.code === '??') {
      untracked++;
      const top = entry.path.split('/')[0] ?? entry.path;
      folders.set(top, (folders.get(top) ?? 0) + 1);
    }
  }
  const mostlyIn = [...folders.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  return { snapshot: makeSnapshot(status.head, files), untracked: { count: untracked, mostlyIn } };
}

// Content, not mtime: a tool that rewrites a file unchanged must not look like an edit. Only a
// regular file is ever opened: reading a FIFO would wait for a writer forever.
function fingerprint(name: string, budget: { bytes: number; count: number }): string {
  const path = fsPath(name);
  try {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return `link:${readlinkSync(path)}`;
    if (stats.isDirectory()) return 'dir';
    if (!stats.isFile()) return `special:${stats.mode}:${stats.rdev}`;
    if (stats.size > HASH_FILE_LIMIT || stats.size > budget.bytes || budget.count <= 0) return `stat:${stats.size}:${stats.mtimeMs}`;
    budget.bytes -= stats.size;
    budget.count--;
    return fastHash(readFileSync(path));
  } catch {
    return 'missing';
  }
}
