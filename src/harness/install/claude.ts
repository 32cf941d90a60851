import { findGateHooks, mergeGateHooks, removeGateHooks } from './settings-merge.js';
import type { HookBin, Installer } from './installer.js';

/** Claude Code's file-editing tools. */
export const POST_EDIT_TOOLS = 'Edit|Write|MultiEdit';
const POST_EDIT_TIMEOUT_SECONDS = 10;

/** Claude Code: `.claude/settings.json` (team) or `.claude/settings.local.json` (personal). */
export const installer: Installer = {
  harness: 'claude',
  file: (personal) => (personal ? '.claude/settings.local.json' : '.claude/settings.json'),
  privateFiles: (personal) => (personal ? ['.claude/settings.local.json'] : []),
  // No --harness: Claude shows this string to the model before every report, so it stays short.
  command: (bin) => `${binWords(bin, 'CLAUDE_PROJECT_DIR')} run`,
  merge: (existing, hooks, fileName) =>
    mergeGateHooks(
      existing,
      [
        { event: 'Stop', command: hooks.command, timeout: hooks.stopTimeoutSeconds, ...status(hooks.stopStatus) },
        { event: 'UserPromptSubmit', command: hooks.command, timeout: hooks.turnStartTimeoutSeconds },
        ...(hooks.subagents ? [{ event: 'SubagentStop', command: hooks.command, timeout: hooks.stopTimeoutSeconds, ...status(hooks.stopStatus) }] : []),
        // The post-edit nudge: after each file edit, the tamper detectors on that edit alone.
        { event: 'PostToolUse', matcher: POST_EDIT_TOOLS, command: hooks.command, timeout: POST_EDIT_TIMEOUT_SECONDS },
      ],
      fileName,
    ),
  remove: removeGateHooks,
  find: (text, fileName) => findGateHooks(text, fileName).map((hook) => ({ event: hook.event, command: hook.args ? [hook.command, ...hook.args].join(' ') : hook.command, timeoutSeconds: hook.timeout })),
  enableStep: undefined,
};

/**
 * The program part of a hook command: a local install addressed from the harness's project-dir
 * variable, quoted so that spaces survive /bin/sh; otherwise the global or npx words.
 */
export function binWords(bin: HookBin, projectVariable: string): string {
  if (bin.mode !== 'local' || bin.relativePath === undefined) return bin.program ?? 'gate';
  const path = bin.relativePath;
  return /^[A-Za-z0-9._/-]+$/.test(path) ? `"$${projectVariable}"/${path}` : `"$${projectVariable}/${path.replace(/(["\\$`])/g, '\\$1')}"`;
}

function status(text: string | undefined): { statusMessage?: string } {
  return text === undefined ? {} : { statusMessage: text };
}
