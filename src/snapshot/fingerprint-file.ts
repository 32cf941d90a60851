import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { fsPath } from '../git/path-bytes.js';
import { fastHash } from '../hash/fast-hash.js';

const HASH_FILE_LIMIT = 4 * 1024 * 1024;
// Past these, files are fingerprinted by size, mtime and ctime: a huge untracked build folder that
// is not ignored must not make every stop read it all. ctime too, since an edit that keeps the size
// can put the mtime back (\`touch -r\`, utimes), and that very call moves the ctime on.
const HASH_TOTAL_LIMIT = 64 * 1024 * 1024;
const HASH_COUNT_LIMIT = 5000;

/** What is left to read by content in one snapshot. */
export interface HashBudget {
  bytes: number;
  count: number;
}

export function hashBudget(): HashBudget {
  return { bytes: HASH_TOTAL_LIMIT, count: HASH_COUNT_LIMIT };
}

// Content, not mtime: a tool that rewrites a file unchanged must not look like an edit. Only a
// regular file is ever opened: reading a FIFO would wait for a writer forever.
export function fingerprintFile(name: string, budget: HashBudget): string {
  const path = fsPath(name);
  try {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return `link:${readlinkSync(path)}`;
    if (stats.isDirectory()) return 'dir';
    if (!stats.isFile()) return `special:${stats.mode}:${stats.rdev}`;
    if (stats.size > HASH_FILE_LIMIT || stats.size > budget.bytes || budget.count <= 0) return `stat:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
    budget.bytes -= stats.size;
    budget.count--;
    try {
      return fastHash(readFileSync(path));
    } catch {
      // There but unreadable to this user: its size and times still change with an edit ("missing"
      // both before and after would hide one).
      return `unreadable:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
    }
  } catch {
    return 'missing';
  }
}
