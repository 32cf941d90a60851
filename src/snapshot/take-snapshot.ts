import { join } from 'node:path';
import type { Repo } from '../git/find-repo.js';
import { isNestedRepo, readStatus } from '../git/read-status.js';
import { environmentPaths } from './environment-paths.js';
import { fingerprintFile, hashBudget } from './fingerprint-file.js';
import { makeSnapshot, type Snapshot } from './snapshot.js';

export const UNTRACKED_HINT_THRESHOLD = 1000;

export interface TakenSnapshot {
  snapshot: Snapshot;
  /** Untracked files that are not ignored, and the top folder most of them are in. */
  untracked: { count: number; mostlyIn: string | undefined };
}

/** One `git status`, then a content fingerprint of each path it lists. */
export async function takeSnapshot(repo: Repo): Promise<TakenSnapshot> {
  const status = await readStatus(repo.root);
  const files: Record<string, string> = {};
  const budget = hashBudget();
  const folders = new Map<string, number>();
  let untracked = 0;
  const isEnvironment = environmentPaths(status.entries);
  for (const entry of status.entries) {
    if (entry.code === '??') {
      untracked++;
      const top = entry.path.split('/')[0] ?? entry.path;
      folders.set(top, (folders.get(top) ?? 0) + 1);
      if (isEnvironment(entry.path) || isToolLeftover(entry.path)) continue;
    }
    files[entry.path] = fingerprintFile(join(repo.root, entry.path), budget);
    if (entry.from !== undefined) files[entry.from] = fingerprintFile(join(repo.root, entry.from), budget);
  }
  // Only a repository with a changed submodule or an untracked repository inside pays for this.
  const nested = status.entries.filter((entry) => isNestedRepo(entry) && !(entry.code === '??' && isEnvironment(entry.path)));
  if (nested.length > 0) {
    const { fingerprintNested } = await import('./nested-repos.js');
    Object.assign(files, await fingerprintNested(repo.root, nested, budget));
  }
  const mostlyIn = [...folders.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  return { snapshot: makeSnapshot(status.head, files), untracked: { count: untracked, mostlyIn } };
}

/**
 * An untracked file a test runner writes into the project while it runs and removes after: left
 * behind by a run that was killed (a gate's time-out), it is no change of the agent's. vitest's
 * typecheck writes `tsconfig.vitest-temp.json` beside the tsconfig; as a changed tsconfig it would
 * send every gate to its full run.
 */
export function isToolLeftover(path: string): boolean {
  return path === 'tsconfig.vitest-temp.json' || path.endsWith('/tsconfig.vitest-temp.json');
}
