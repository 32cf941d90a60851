import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { readBaseVersions } from '../snapshot/base-versions.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { StartState } from '../start/start-state.js';
import { manifestKeysChanged } from './manifest-change.js';

/**
 * For each changed package.json whose text at the change's base is known (src/snapshot/base-versions.ts)
 * and which parses then and now: the keys that differ (src/plan/manifest-change.ts). Anything unknown
 * is left out: the full run.
 */
export async function readManifestKeys(root: string, baseline: Snapshot, start: StartState | undefined, paths: readonly string[]): Promise<Record<string, string[]>> {
  const manifests = paths.filter((file) => posix.basename(file) === 'package.json');
  const versions = await readBaseVersions(root, baseline, start, manifests);
  const found: Record<string, string[]> = {};
  for (const path of manifests) {
    const before = versions.get(path);
    if (typeof before !== 'string') continue;
    let after: string;
    try {
      after = readFileSync(`${root}/${path}`, 'utf8');
    } catch {
      continue;
    }
    const keys = manifestKeysChanged(before, after);
    if (keys !== undefined) found[path] = keys;
  }
  return found;
}
