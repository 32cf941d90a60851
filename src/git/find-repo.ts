import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

export interface Repo {
  /** The work tree's top directory. */
  root: string;
  /** This work tree's git directory (for a linked worktree: `.git/worktrees/<name>`). */
  gitDir: string;
}

/**
 * Finds the enclosing git work tree by walking up from `start`, without spawning git: the hot path
 * can afford exactly one git call, and that one is `git status`.
 */
export function findRepo(start: string): Repo | undefined {
  let dir = resolve(start);
  for (;;) {
    const dotGit = join(dir, '.git');
    const gitDir = readGitDir(dotGit);
    if (gitDir !== undefined) return { root: dir, gitDir };
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function readGitDir(dotGit: string): string | undefined {
  let stats;
  try {
    stats = statSync(dotGit);
  } catch {
    return undefined;
  }
  if (stats.isDirectory()) return dotGit;
  if (!stats.isFile()) return undefined;
  // A linked worktree or a submodule: `.git` is a file saying `gitdir: <path>`.
  const match = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
  if (!match?.[1]) return undefined;
  const target = match[1].trim();
  return isAbsolute(target) ? target : resolve(dirname(dotGit), target);
}

/** The same directory as `git rev-parse --git-path gate`: per worktree, never in `git status`. */
export function stateDirOf(repo: Repo): string {
  return join(repo.gitDir, 'gate');
}

/** A merge, rebase, cherry-pick or revert is half done: gating it would only get in the way. */
export function operationInProgress(repo: Repo): string | undefined {
  const markers: Array<[string, string]> = [
    ['MERGE_HEAD', 'merge'],
    ['rebase-merge', 'rebase'],
    ['rebase-apply', 'rebase'],
    ['CHERRY_PICK_HEAD', 'cherry-pick'],
    ['REVERT_HEAD', 'revert'],
  ];
  for (const [file, name] of markers) {
    if (existsSync(join(repo.gitDir, file))) return name;
  }
  return undefined;
}
