import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { execGit } from '../git/exec-git.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { manifestKeysChanged } from './manifest-change.js';

/**
 * For each changed package.json whose text at the turn's start is known and which parses then and
 * now: the keys that differ (src/plan/manifest-change.ts). The start's text comes from the
 * baseline's commit for a file clean then, from the start's tree (`startTree`, written at the
 * prompt for this baseline) for one already edited. Anything unknown is left out: the full run.
 */
export async function readManifestKeys(root: string, baseline: Snapshot, startTree: string | undefined, paths: readonly string[]): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const path of paths.filter((file) => posix.basename(file) === 'package.json')) {
    const source = path in baseline.files ? startTree : (baseline.head ?? undefined);
    if (source === undefined) continue;
    let before: string;
    let after: string;
    try {
      before = await execGit(root, ['show', `${source}:${path}`]);
      after = readFileSync(`${root}/${path}`, 'utf8');
    } catch {
      continue;
    }
    const keys = manifestKeysChanged(before, after);
    if (keys !== undefined) found[path] = keys;
  }
  return found;
}

