import { execGit } from './exec-git.js';
import { parseStatus, type Status, type StatusEntry } from './parse-status.js';

/** `git status` in machine form: every changed path, untracked files one by one, no renames. */
export async function readStatus(root: string): Promise<Status> {
  return parseStatus(await execGit(root, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--no-renames']));
}

/** A submodule, or a repository inside that is not tracked: with every untracked file listed one by one, git lists a folder ("dir/") only for a repository. */
export function isNestedRepo(entry: StatusEntry): boolean {
  return entry.submodule !== undefined || (entry.code === '??' && entry.path.endsWith('/'));
}
