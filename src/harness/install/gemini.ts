import { join } from 'node:path';
import { mergeGateHooks, removeGateHooks } from './settings-merge.js';
import type { HookFileShape } from './gate-hook-entry.js';
import { findMillisecondHooks } from './millisecond-hooks.js';
import type { HookBin, Installer } from './installer.js';

/**
 * Gemini CLI: `.gemini/settings.json`, Claude Code's grouped shape under `hooks`, timeouts in
 * milliseconds. It has no uncommitted project file, so a personal install goes to
 * `~/.gemini/settings.json`. Measured on Gemini CLI 0.61.0 (docs/harness-gemini.md).
 */
export const installer: Installer = {
  harness: 'gemini',
  file: (personal, home) => (personal ? join(home, '.gemini', 'settings.json') : '.gemini/settings.json'),
  privateFiles: () => [],
  command: (bin) => `${programWords(bin)} run --harness gemini ${FALLBACK.join(' ')}`,
  merge: (existing, hooks, fileName) =>
    mergeGateHooks(
      existing,
      [
        { event: 'AfterAgent', command: hooks.command, timeout: hooks.stopTimeoutSeconds * 1000 },
        { event: 'BeforeAgent', command: hooks.command, timeout: hooks.turnStartTimeoutSeconds * 1000 },
      ],
      fileName,
      SHAPE,
    ),
  remove: (existing, fileName) => removeGateHooks(existing, fileName, SHAPE),
  find: (text, fileName) => findMillisecondHooks(text, fileName, SHAPE),
  enableStep:
    'Gemini CLI runs project hooks only in a trusted folder: start `gemini` here and trust the folder when it asks (or with /permissions). ' +
    'Headless runs (`gemini -p`) in an untrusted folder stop at once; in CI pass --skip-trust or set GEMINI_CLI_TRUST_WORKSPACE=true.',
};

/**
 * Any exit but 0 and 1 counts as "deny" in Gemini CLI: a missing gate (127) would discard every
 * prompt at BeforeAgent. gate itself always exits 0 under Gemini; this turns a failure to start
 * it into Gemini's non-blocking warning.
 */
const FALLBACK = ['||', 'exit', '1'];

const SHAPE: HookFileShape = {
  // `name` is what Gemini shows in its warnings and what `/hooks disable gate` takes.
  entry: ({ command, timeout }) => ({ name: 'gate', type: 'command', command, timeout }),
  strictNote: 'gate edits only strict JSON; Gemini CLI also accepts comments: remove them, or add the hooks by hand',
  suffix: FALLBACK,
};

/**
 * Gemini CLI runs a hook with `bash -c` in the project directory, after replacing
 * `$GEMINI_PROJECT_DIR` in the command text with that directory already shell-quoted; so the
 * variable stays unquoted here (quoting it again would break a path with spaces).
 */
function programWords(bin: HookBin): string {
  if (bin.mode !== 'local' || bin.relativePath === undefined) return bin.program ?? 'gate';
  const path = bin.relativePath;
  return `$GEMINI_PROJECT_DIR/${/^[A-Za-z0-9._/-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`}`;
}
