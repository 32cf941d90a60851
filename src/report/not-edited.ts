import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The files that changed since the turn's start but not through this session's edit tools: another
 * session or a person may be editing them (two agents on one tree) — or a command the agent ran.
 * Failing files first. Nothing when the session has no edit record to compare with.
 */
export function changedNotEdited(failing: Array<{ cwd: string; files: string[] }>, root: string, changed: string[], edits: Set<string> | undefined): string[] {
  if (edits === undefined) return [];
  const others = changed.filter((path) => !edits.has(path));
  const failingFiles = new Set(
    failing.flatMap(({ cwd, files }) =>
      files.map((file) => relative(root, resolve(cwd, file))).filter((path) => path !== '' && !path.startsWith('..') && !isAbsolute(path)).map((path) => path.split(sep).join('/')),
    ),
  );
  return [...others.filter((path) => failingFiles.has(path)), ...others.filter((path) => !failingFiles.has(path))];
}
