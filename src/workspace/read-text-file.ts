import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../config/parse-json.js';
import { WorkspaceError } from './workspace-error.js';

/** The file's text without a byte-order mark, or undefined when it does not exist. */
export function readTextFile(root: string, file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new WorkspaceError(file, `could not be read (${error instanceof Error ? error.message : String(error)}); make it readable`);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The file's JSON value, or undefined when it does not exist; invalid JSON throws a WorkspaceError. */
export function readJsonFile(root: string, file: string): unknown {
  const text = readTextFile(root, file);
  if (text === undefined) return undefined;
  const parsed = parseJson(file, text);
  if ('problem' in parsed) throw new WorkspaceError(file, parsed.problem.message);
  return parsed.value;
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}
