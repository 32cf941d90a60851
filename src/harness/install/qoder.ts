import { findGateHooks, mergeGateHooks, removeGateHooks } from './settings-merge.js';
import type { HookFileShape } from './gate-hook-entry.js';
import { binWords } from './claude.js';
import type { Installer } from './installer.js';

const SHAPE: HookFileShape = { strictNote: 'gate edits settings only as strict JSON: no comments, no trailing commas' };

/**
 * Qoder CLI: Claude Code's grouped shape under `hooks` in `.qoder/settings.json` (team) or
 * `.qoder/settings.local.json` (personal), timeouts in seconds. Read in qodercli 1.1.52's bundle;
 * not run against a model here (docs/harness-qoder.md).
 */
export const installer: Installer = {
  harness: 'qoder',
  file: (personal) => (personal ? '.qoder/settings.local.json' : '.qoder/settings.json'),
  privateFiles: (personal) => (personal ? ['.qoder/settings.local.json'] : []),
  // Qoder runs a command hook under `bash -c` with QODER_PROJECT_DIR (and CLAUDE_PROJECT_DIR) set.
  command: (bin) => `${binWords(bin, 'QODER_PROJECT_DIR')} run --harness qoder`,
  merge: (existing, hooks, fileName) =>
    mergeGateHooks(
      existing,
      [
        { event: 'Stop', command: hooks.command, timeout: hooks.stopTimeoutSeconds },
        { event: 'UserPromptSubmit', command: hooks.command, timeout: hooks.turnStartTimeoutSeconds },
      ],
      fileName,
      SHAPE,
    ),
  remove: (existing, fileName) => removeGateHooks(existing, fileName, SHAPE),
  find: (text, fileName) =>
    findGateHooks(text, fileName, SHAPE).map((hook) => ({
      event: hook.event,
      command: hook.command,
      ...(hook.timeout === undefined ? {} : { timeoutSeconds: hook.timeout }),
    })),
  enableStep:
    'In an interactive session Qoder runs project hooks only in a trusted folder: trust this folder when qodercli asks. ' +
    'gate under Qoder is read from its code, not yet run against a model here (docs/harness-qoder.md).',
};
