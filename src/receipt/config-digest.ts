import { relative, sep } from 'node:path';
import { fastHash } from '../hash/fast-hash.js';

/**
 * The identity of every config a full run read: each config directory (relative to the repository
 * root) with its hash (ConfigTree.hashes), in a fixed order.
 */
export function configDigest(hashes: ReadonlyMap<string, string>, repoRoot: string): string {
  const entries = [...hashes.entries()].map(([dir, hash]) => `${relative(repoRoot, dir).split(sep).join('/')}\0${hash}`).sort();
  return fastHash(entries.join('\n'));
}
