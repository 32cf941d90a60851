import { join } from 'node:path';
import { execGit } from '../git/exec-git.js';
import { samePathsAt } from '../snapshot/same-as-committed.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { readState, writeState } from '../state/state-files.js';
import { isPassedState, type PassedState } from '../state/session-state.js';

/** Trees remembered: a few turns' worth, each a snapshot's changed files, so small. */
const KEPT = 8;
/** Past this many files to compare, a baseline is checked the usual way. */
const MOST_FILES = 200;

export function passedTreesPath(stateDir: string): string {
  return join(stateDir, 'passed-trees.json');
}

/** Adds a tree every gate it triggered passed on (newest last; the oldest go past KEPT). */
export function rememberPassedTree(stateDir: string, passed: PassedState): void {
  const path = passedTreesPath(stateDir);
  const kept = (readState(path, isPassedList).value ?? []).filter((entry) => entry.snapshot.digest !== passed.snapshot.digest || entry.configHash !== passed.configHash);
  writeState(path, [...kept, passed].slice(-KEPT));
}

/**
 * Whether the turn's baseline is, by content, a tree the gates passed on under this config: the
 * same snapshot, or — after a person committed what had just passed — a clean commit whose files are
 * exactly that snapshot's. Then it had no failures, and no copy of it needs to run. Any doubt (a file
 * too big to have been hashed, a link, a rename, git failing) is a no: the copy runs as before.
 */
export async function passedByContent(stateDir: string, root: string, baseline: Snapshot, configHash: string): Promise<PassedState | undefined> {
  const trees = (readState(passedTreesPath(stateDir), isPassedList).value ?? []).filter((entry) => entry.configHash === configHash);
  const same = trees.find((entry) => entry.snapshot.digest === baseline.digest);
  if (same) return same;
  if (baseline.head === null || Object.keys(baseline.files).length > 0) return undefined;
  for (const entry of trees.reverse()) {
    const { snapshot } = entry;
    if (snapshot.head !== null && snapshot.head !== baseline.head && (await sameContent(root, snapshot, baseline.head))) return entry;
  }
  return undefined;
}

/** The snapshot's files on its commit are exactly the commit `head`'s. */
async function sameContent(root: string, snapshot: Snapshot, head: string): Promise<boolean> {
  try {
    const moved = (await execGit(root, ['diff', '--no-renames', '--name-only', '-z', snapshot.head ?? '', head])).split('\0').filter(Boolean);
    // A file the commits differ in that the snapshot had as its commit's: not the same content.
    if (moved.some((path) => !(path in snapshot.files))) return false;
    const paths = Object.keys(snapshot.files);
    return paths.length <= MOST_FILES && (await samePathsAt(root, head, paths, snapshot.files)).size === paths.length;
  } catch {
    return false;
  }
}

function isPassedList(value: unknown): value is PassedState[] {
  return Array.isArray(value) && value.every(isPassedState);
}
