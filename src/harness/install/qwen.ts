import { join } from 'node:path';
import { findGateHooks, mergeGateHooks, removeGateHooks } from './settings-merge.js';
import type { HookFileShape } from './gate-hook-entry.js';
import { binWords } from './claude.js';
import type { Installer } from './installer.js';

const SHAPE: HookFileShape = { strictNote: 'gate edits settings only as strict JSON: no comments, no trailing commas' };

/**
 * Qwen Code: Claude Code's grouped shape under `hooks` in `.qwen/settings.json`. Qwen has no
 * uncommitted project file, so a personal install goes to `~/.qwen/settings.json`.
 */
export const installer: Installer = {
  harness: 'qwen',
  file: (personal, home) => (personal ? join(home, '.qwen', 'settings.json') : '.qwen/settings.json'),
  privateFiles: () => [],
  // Qwen sets QWEN_PROJECT_DIR (and CLAUDE_PROJECT_DIR) for every command hook; bash expands it.
  command: (bin) => `${binWords(bin, 'QWEN_PROJECT_DIR')} run --harness qwen`,
  merge: (existing, hooks, fileName) =>
    mergeGateHooks(
      existing,
      [
        { event: 'Stop', command: hooks.command, timeout: qwenTimeout(hooks.stopTimeoutSeconds) },
        { event: 'UserPromptSubmit', command: hooks.command, timeout: qwenTimeout(hooks.turnStartTimeoutSeconds) },
        ...(hooks.subagents ? [{ event: 'SubagentStop', command: hooks.command, timeout: qwenTimeout(hooks.stopTimeoutSeconds) }] : []),
      ],
      fileName,
      SHAPE,
    ),
  remove: (existing, fileName) => removeGateHooks(existing, fileName, SHAPE),
  find: (text, fileName) =>
    findGateHooks(text, fileName, SHAPE).map((hook) => ({
      event: hook.event,
      command: hook.command,
      ...(hook.timeout === undefined ? {} : { timeoutSeconds: hook.timeout >= 1000 ? hook.timeout / 1000 : hook.timeout }),
    })),
  enableStep:
    "Nothing to enable unless Qwen Code's trusted folders are on (security.folderTrust.enabled): then trust this folder, " +
    'since Qwen loads project hooks only in trusted folders.',
};

/**
 * Qwen reads a command hook's `timeout` in seconds, except that 1000 or more is read as
 * milliseconds (its older unit); so a timeout of 1000 s or more is written in milliseconds.
 */
export function qwenTimeout(seconds: number): number {
  return seconds >= 1000 ? seconds * 1000 : seconds;
}
