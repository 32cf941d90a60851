import { join } from 'node:path';
import { findGateHooks, mergeGateHooks, removeGateHooks } from './settings-merge.js';
import type { HookBin, Installer } from './installer.js';

/**
 * Codex CLI: `.codex/hooks.json`, Claude Code's grouped shape under `hooks` (timeouts in seconds).
 * Codex has no uncommitted project file, so a personal install goes to `~/.codex/hooks.json`.
 */
export const installer: Installer = {
  harness: 'codex',
  file: (personal, home) => (personal ? join(home, '.codex', 'hooks.json') : '.codex/hooks.json'),
  privateFiles: () => [],
  command: (bin) => `${programWords(bin)} run --harness codex`,
  merge: (existing, hooks, fileName) =>
    mergeGateHooks(
      existing,
      [
        { event: 'Stop', command: hooks.command, timeout: hooks.stopTimeoutSeconds },
        { event: 'UserPromptSubmit', command: hooks.command, timeout: hooks.turnStartTimeoutSeconds },
        // Codex fires SubagentStop with Stop's contract (exit 2 + stderr continues the subagent; 0.171.0).
        ...(hooks.subagents ? [{ event: 'SubagentStop', command: hooks.command, timeout: hooks.stopTimeoutSeconds }] : []),
      ],
      fileName,
    ),
  remove: removeGateHooks,
  find: (text, fileName) => findGateHooks(text, fileName).map((hook) => ({ event: hook.event, command: hook.command, timeoutSeconds: hook.timeout })),
  enableStep:
    'Codex runs only hooks you approved, and project hooks only in a trusted project: start `codex` here, trust the project, ' +
    "and approve gate's Stop and UserPromptSubmit hooks under /hooks (again after every change to the hooks file). " +
    '`codex exec` skips unapproved hooks without a word; in CI pass --dangerously-bypass-hook-trust.',
};

/** Where the git root is, from any directory inside it; outside git, the hook's own directory. */
const ROOT = '$(git rev-parse --show-toplevel 2>/dev/null || pwd)';

/**
 * Codex runs a hook with `$SHELL -lc` in its session directory, which may be any directory below
 * the project, and sets no variable naming the project. So a local install is addressed from the
 * git root (where a hoisted node_modules lives too), quoted so that spaces survive the shell.
 */
function programWords(bin: HookBin): string {
  if (bin.mode !== 'local' || bin.relativePath === undefined) return bin.program ?? 'gate';
  const path = bin.relativePath.replace(/^(?:\.\.\/)+/, '');
  return /^[A-Za-z0-9._/-]+$/.test(path) ? `"${ROOT}"/${path}` : `"${ROOT}/${path.replace(/(["\\$`])/g, '\\$1')}"`;
}
