import { homedir } from 'node:os';
import { join } from 'node:path';
import { readIfPresent } from '../init/apply-changes.js';
import { installer } from './install/cursor.js';

/**
 * Cursor runs Claude Code's `.claude` hooks too (its "third-party hooks"), so a project with both
 * installs would have every stop gated twice, each copy counting its own blocks. When Cursor's own
 * hooks file has gate's stop hook, the copy run from `.claude` leaves the stop to it: Cursor's entry
 * answers in Cursor's protocol (`followup_message`), while how Cursor reads a Claude-style exit 2 is
 * not documented. Only read for a payload that comes from Cursor (parse-payload's `viaCursor`).
 */
export function cursorHookGates(dirs: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const home = env['HOME'] ?? homedir();
  const files = [...new Set([...dirs.map((dir) => join(dir, installer.file(false, home))), installer.file(true, home)])];
  return files.some((file) => {
    const text = readIfPresent(file);
    if (text === undefined) return false;
    try {
      return installer.find(text, file).some((hook) => hook.event === 'stop');
    } catch {
      // A hooks file gate cannot read: Cursor may not run it either, so this copy keeps gating.
      return false;
    }
  });
}
