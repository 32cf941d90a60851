import { findGateHooks, mergeGateHooks, removeGateHooks } from './settings-merge.js';
import type { HookFileShape } from './gate-hook-entry.js';
import { binWords } from './claude.js';
import type { Installer } from './installer.js';

/** Entries sit directly in each event's array; the command is `bash`, the timeout `timeoutSec`. */
const ENTRIES: HookFileShape = {
  flat: true,
  commandKey: 'bash',
  timeoutKey: 'timeoutSec',
  entry: ({ command, timeout }) => ({ type: 'command', bash: command, timeoutSec: timeout }),
  strictNote: 'gate edits hook files only as strict JSON: no comments, no trailing commas',
};
/** A file under `.github/hooks/` says which format version it is in. */
const HOOKS_FILE: HookFileShape = { ...ENTRIES, newFile: { version: 1 } };

const TEAM_FILE = '.github/hooks/gate.json';
const PERSONAL_FILE = '.github/copilot/settings.local.json';
const shapeOf = (fileName: string): HookFileShape => (fileName.endsWith('settings.local.json') ? ENTRIES : HOOKS_FILE);

/**
 * GitHub Copilot CLI: a hooks file of gate's own in `.github/hooks/` (team), or the `hooks` key of
 * `.github/copilot/settings.local.json` (personal, gitignored). Copilot ignores exit 2 from
 * `agentStop`, so the command names the harness and gate answers with JSON; its payloads name no
 * event, so each command names its own.
 */
export const installer: Installer = {
  harness: 'copilot',
  file: (personal) => (personal ? PERSONAL_FILE : TEAM_FILE),
  privateFiles: (personal) => (personal ? [PERSONAL_FILE] : []),
  // Copilot sets COPILOT_PROJECT_DIR (and CLAUDE_PROJECT_DIR) for every hook; bash expands it.
  command: (bin) => `${binWords(bin, 'COPILOT_PROJECT_DIR')} run --harness copilot`,
  merge: (existing, hooks, fileName) =>
    mergeGateHooks(
      existing,
      [
        { event: 'agentStop', command: `${hooks.command} --event agentStop`, timeout: hooks.stopTimeoutSeconds },
        { event: 'userPromptSubmitted', command: `${hooks.command} --event userPromptSubmitted`, timeout: hooks.turnStartTimeoutSeconds },
        ...(hooks.subagents ? [{ event: 'subagentStop', command: `${hooks.command} --event subagentStop`, timeout: hooks.stopTimeoutSeconds }] : []),
      ],
      fileName,
      shapeOf(fileName),
    ),
  remove: (existing, fileName) => removeGateHooks(existing, fileName, shapeOf(fileName)),
  find: (text, fileName) => findGateHooks(text, fileName, shapeOf(fileName)).map((hook) => ({ event: hook.event, command: hook.command, timeoutSeconds: hook.timeout })),
  enableStep:
    'Copilot CLI runs project hooks only in a trusted folder: start `copilot` here once and trust the folder ' +
    '(`copilot -p` needs --trust-folder until then).',
};
