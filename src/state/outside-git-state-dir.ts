import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fastHash } from '../hash/fast-hash.js';

/** Outside git there is no git dir to keep state in: one folder per config directory in tmp. */
export function outsideGitStateDir(configDir: string): string {
  return join(tmpdir(), `stopgate-${fastHash(configDir)}`);
}
