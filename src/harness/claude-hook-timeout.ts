import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installer } from './install/claude.js';

const SETTINGS = ['.claude/settings.json', '.claude/settings.local.json'];

/**
 * gate's hook timeout for `event` in Claude Code's project settings, in seconds: the shortest, when
 * both files have an entry; undefined when neither does (a plugin or user-level install).
 */
export function claudeHookTimeout(projectDir: string, event: string): number | undefined {
  const set = SETTINGS.flatMap((file) => {
    try {
      const text = readFileSync(join(projectDir, file), 'utf8');
      return installer.find(text, file).flatMap((hook) => (hook.event === event && hook.timeoutSeconds !== undefined ? [hook.timeoutSeconds] : []));
    } catch {
      return [];
    }
  });
  return set.length > 0 ? Math.min(...set) : undefined;
}
