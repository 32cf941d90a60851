import { join } from 'node:path';
import { findGateHooks, mergeGateHooks, removeGateHooks } from './settings-merge.js';
import type { HookFileShape } from './gate-hook-entry.js';
import { binWords } from './claude.js';
import type { Installer } from './installer.js';

/** `.factory/hooks.json` is keyed by event at its top level: `{"Stop": [{"hooks": [entry]}]}`. */
const SHAPE: HookFileShape = { eventsAtRoot: true, strictNote: 'gate edits hooks.json only as strict JSON: no comments, no trailing commas' };

/**
 * Factory Droid: `.factory/hooks.json`, matcher groups per event with no `hooks` wrapper (timeouts
 * in seconds). Droid has no uncommitted project hooks file, so a personal install goes to
 * `~/.factory/hooks.json`.
 */
export const installer: Installer = {
  harness: 'factory',
  file: (personal, home) => (personal ? join(home, '.factory', 'hooks.json') : '.factory/hooks.json'),
  privateFiles: () => [],
  // Droid sets FACTORY_PROJECT_DIR (and CLAUDE_PROJECT_DIR) for every hook; its shell expands it.
  command: (bin) => `${binWords(bin, 'FACTORY_PROJECT_DIR')} run --harness factory`,
  merge: (existing, hooks, fileName) =>
    mergeGateHooks(
      existing,
      [
        { event: 'Stop', command: hooks.command, timeout: hooks.stopTimeoutSeconds },
        { event: 'UserPromptSubmit', command: hooks.command, timeout: hooks.turnStartTimeoutSeconds },
        // `droid exec` fires no UserPromptSubmit; its session start is its turn start.
        { event: 'SessionStart', command: hooks.command, timeout: hooks.turnStartTimeoutSeconds },
      ],
      fileName,
      SHAPE,
    ),
  remove: (existing, fileName) => removeGateHooks(existing, fileName, SHAPE),
  find: (text, fileName) => findGateHooks(text, fileName, SHAPE).map((hook) => ({ event: hook.event, command: hook.command, timeoutSeconds: hook.timeout })),
  enableStep: undefined,
};
