import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TEAM_FILE } from '../config/find-config.js';
import { findIgnored } from '../init/find-ignored.js';
import { describeIgnored } from '../init/share-ignored.js';
import type { Finding } from './judge-delivery.js';

/**
 * A team hook file or gate.config.json that git ignores and does not track never reaches the team:
 * their stops are not gated, while this machine's are. Files relative to projectDir.
 */
export function checkShared(projectDir: string, repoRoot: string | undefined, teamHookFiles: string[]): Finding[] {
  if (repoRoot === undefined) return [];
  const files = [...teamHookFiles, ...(existsSync(join(projectDir, TEAM_FILE)) ? [TEAM_FILE] : [])];
  return (findIgnored(projectDir, repoRoot, files) ?? []).map((file) => ({
    level: 'problem',
    message: `${describeIgnored(file)} and does not track it: no teammate gets it, so their stops are not gated. Fix: add at the end of ${file.ignoreFile}, in this order: ${file.lines.join('  ')} — or commit it with \`git add -f ${file.file}\``,
  }));
}
