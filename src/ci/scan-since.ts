import type { Repo } from '../git/find-repo.js';
import { committedPaths } from '../snapshot/committed-paths.js';
import { changedPaths, headSnapshot } from '../snapshot/snapshot.js';
import { takeSnapshot } from '../snapshot/take-snapshot.js';
import { findTampering } from '../tamper/find-tampering.js';
import type { TamperScan } from '../tamper/tamper-finding.js';

/** The tamper scan over everything that differs from the merge base: its commits, and the checkout's own edits. */
export async function scanSince(repo: Repo, mergeBase: string): Promise<TamperScan & { changedFiles: number }> {
  const { snapshot } = await takeSnapshot(repo);
  const committed = await committedPaths(repo, mergeBase, snapshot.head);
  const change = changedPaths(headSnapshot(mergeBase), snapshot, committed);
  const scan = await findTampering(repo.root, mergeBase, change.paths);
  const unlisted = change.all ? 'the files changed in the commits since the merge base could not be listed' : undefined;
  const incomplete = [unlisted, scan.incomplete].filter(Boolean).join('; ') || undefined;
  return { ...scan, incomplete, changedFiles: change.paths.length };
}
