import { join } from 'node:path';
import { findGateHooks, mergeGateHooks, removeGateHooks } from './settings-merge.js';
import type { GateHook, HookFileShape } from './gate-hook-entry.js';
import { binWords } from './claude.js';
import type { Installer } from './installer.js';

/**
 * Cursor: `.cursor/hooks.json`, `{"version": 1, "hooks": {"stop": [entry, …]}}` with the entries
 * straight in each event's array, timeouts in seconds, and `loop_limit` (Cursor's own cap on
 * follow-ups) equal to gate's bound. No uncommitted project file: a personal install goes to
 * `~/.cursor/hooks.json`. From Cursor's documentation; no Cursor CLI runs offline (docs/harness-cursor.md).
 */
export const installer: Installer = {
  harness: 'cursor',
  file: (personal, home) => (personal ? join(home, '.cursor', 'hooks.json') : '.cursor/hooks.json'),
  privateFiles: () => [],
  command: (bin) => `${binWords(bin, 'CURSOR_PROJECT_DIR')} run --harness cursor`,
  merge: (existing, hooks, fileName) =>
    mergeGateHooks(
      existing,
      [
        { event: 'stop', command: hooks.command, timeout: hooks.stopTimeoutSeconds },
        { event: 'beforeSubmitPrompt', command: hooks.command, timeout: hooks.turnStartTimeoutSeconds },
      ],
      fileName,
      shape(hooks.maxBlocks),
    ),
  remove: (existing, fileName) => removeGateHooks(existing, fileName, shape(undefined)),
  find: (text, fileName) =>
    findGateHooks(text, fileName, shape(undefined)).map((hook) => ({
      event: hook.event,
      command: hook.command,
      ...(hook.timeout === undefined ? {} : { timeoutSeconds: hook.timeout }),
    })),
  enableStep:
    'Cursor runs project hooks only in a trusted workspace and reads hooks.json when it starts: trust the workspace, restart Cursor, ' +
    "and check that gate's stop and beforeSubmitPrompt hooks are listed under Settings → Hooks.",
};

function shape(maxBlocks: number | undefined): HookFileShape {
  return {
    flat: true,
    newFile: { version: 1 },
    entry: (hook: GateHook) => ({
      command: hook.command,
      timeout: hook.timeout,
      ...(hook.event === 'stop' && maxBlocks !== undefined ? { loop_limit: maxBlocks } : {}),
    }),
    strictNote: 'gate edits only strict JSON: no comments, no trailing commas',
  };
}
