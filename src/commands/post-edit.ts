import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ConfigFiles } from '../config/find-config.js';
import { rawTamperSetting } from '../config/tamper-setting.js';
import { asciiJson } from '../hook/hook-output.js';
import { editChange } from '../nudge/edit-change.js';
import type { EditedFile } from '../nudge/edited-file.js';
import { nudgeFindings } from '../nudge/nudge-findings.js';
import { recordEdit } from '../state/session-edits.js';
import { describeTampering } from '../tamper/describe-tampering.js';

const MAX_FILE_BYTES = 1024 * 1024;

export interface PostEdit {
  edit: EditedFile | undefined;
  projectDir: string;
  root: string;
  configFiles: ConfigFiles;
  stdout: NodeJS.WritableStream;
}

/**
 * After an agent's edit (Claude Code's PostToolUse on Edit, Write, MultiEdit): the tamper
 * detectors on that edit's own lines, and when they find something, a word to the agent now,
 * before it builds on it. Never blocks; reads only the edited file; no git.
 */
export function nudgeAfterEdit({ edit, projectDir, root, configFiles, stdout }: PostEdit): number {
  const setting = rawTamperSetting(configFiles);
  if (edit === undefined || setting === 'off') return 0;
  const absolute = resolve(projectDir, edit.path);
  const path = relative(root, absolute);
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return 0;
  const findings = nudgeFindings(editChange(path.split(sep).join('/'), edit, readSmall(absolute)));
  if (findings.length === 0) return 0;
  const consequence = setting === 'block' ? 'gate will refuse the stop while it stays' : 'gate will report it to the human at the stop';
  const context = [
    'gate: this edit makes a check easier to pass instead of making the code right:',
    ...describeTampering(findings, 5).map((line) => `  ${line}`),
    `If the code is what is wrong, fix the code and keep the check; ${consequence}.`,
  ].join('\n');
  stdout.write(`${asciiJson({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: context } })}\n`);
  return 0;
}

/** Which files this session's agent edited: a failure in a file it never touched is someone else's (src/state/session-edits.ts). */
export function rememberEdit(stateDir: string, session: string, root: string, projectDir: string, path: string): void {
  const relativePath = relative(root, resolve(projectDir, path));
  if (relativePath === '' || relativePath.startsWith('..') || isAbsolute(relativePath)) return;
  recordEdit(stateDir, session, relativePath.split(sep).join('/'));
}

function readSmall(file: string): string | undefined {
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
