import { mergeGateHooks, removeGateHooks } from './settings-merge.js';
import type { HookFileShape } from './gate-hook-entry.js';
import { findMillisecondHooks } from './millisecond-hooks.js';
import { binWords } from './claude.js';
import type { Installer } from './installer.js';

const SHAPE: HookFileShape = { strictNote: 'gate edits settings only as strict JSON: no comments, no trailing commas' };

/**
 * Auggie: Claude Code's grouped shape under `hooks` in `.augment/settings.json` (team) or
 * `.augment/settings.local.json` (personal), timeouts in milliseconds. Only `Stop`: Auggie fires
 * `PromptSubmit` without waiting for it, so a turn-start baseline could be taken after the agent's
 * first edit and hide it. Read in Auggie 0.36.0's bundle and measured against a mock backend
 * (docs/harness-auggie.md).
 */
export const installer: Installer = {
  harness: 'auggie',
  file: (personal) => (personal ? '.augment/settings.local.json' : '.augment/settings.json'),
  privateFiles: (personal) => (personal ? ['.augment/settings.local.json'] : []),
  // A command with `$` in it runs under `bash -c`, with AUGMENT_PROJECT_DIR (the workspace root) set.
  command: (bin) => `${binWords(bin, 'AUGMENT_PROJECT_DIR')} run --harness auggie`,
  merge: (existing, hooks, fileName) =>
    mergeGateHooks(
      existing,
      [{ event: 'Stop', command: hooks.command, timeout: hooks.stopTimeoutSeconds * 1000 }],
      fileName,
      SHAPE,
    ),
  remove: (existing, fileName) => removeGateHooks(existing, fileName, SHAPE),
  find: (text, fileName) => findMillisecondHooks(text, fileName, SHAPE),
  enableStep:
    'Auggie runs hooks only where your Augment account has them switched on: start `auggie` here and check that /hooks lists ' +
    "gate's Stop entry. Auggie 0.36.0 does not act on a Stop block: the report reaches you, not the agent (docs/harness-auggie.md).",
};
