import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execGit } from '../git/exec-git.js';
import { parseStatus } from '../git/parse-status.js';
import type { Repo } from '../git/find-repo.js';
import { fastHash } from '../fast-hash.js';
import { makeSnapshot, type Snapshot } from './snapshot.js';

const HASH_LIMIT = 4 * 1024 * 1024;

/** One `git status`, then a content fingerprint of each path it lists. */
export async function takeSnapshot(repo: Repo): Promise<Snapshot> {
  const output = await execGit(repo.root, [
    'status',
    '--porcelain=v2',
    '-z',
    '--branch',
    '--untracked-files=all',
    '--no-renames',
  ]);
  const status = parseStatus(output);
  const files: Record<string, string> = {};
  for (const entry of status.entries) {
    files[entry.path] = fingerprint(join(repo.root, entry.path));
    if (entry.from !== undefined) files[entry.from] = fingerprint(join(repo.root, entry.from));
  }
  return makeSnapshot(status.head, files);
}

// Content, not mtime: a tool that rewrites a file unchanged must not look like an edit. Very large
// files fall back to size and mtime so that a stray build artefact can't make the snapshot slow.
function fingerprint(path: string): string {
  try {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return `link:${readlinkSync(path)}`;
    if (stats.isDirectory()) return 'dir';
    if (stats.size > HASH_LIMIT) return `big:${stats.size}:${stats.mtimeMs}`;
    return fastHash(readFileSync(path));
  } catch {
    return 'missing';
  }
}
