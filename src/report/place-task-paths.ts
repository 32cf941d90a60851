import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Filtered } from '../filters/filter.js';

// A relative path where tools print one: before a location (`test/a.test.ts:55:10`, tsc's
// `types.ts(2,12)`), before a test's name (vitest's `FAIL a.test.ts > adds`) or ending the line (jest's `FAIL src/a.test.js`).
const PATH = /(?<![\w@./\\-])([\w@][\w@.-]*(?:\/[\w@.-]+)*\.[A-Za-z]\w*)(?=:\d|\(\d|\s>\s|\s*$)/g;
// vitest's code frame (`  3|   expect(sum).toBe(3)`): the code as written, never rewritten.
const CODE_FRAME = /^\s*(?:❯\s*)?\d+\s*\|/;

/**
 * The items with each relative path that names a file under its item's folders (a task's tool root,
 * its package) said from the project instead (`packages/vue/test/index.test.ts:55`): the agent opens
 * files from there. A path that is no file under those folders, or is outside the project, stays as printed.
 */
export function placeTaskPaths(filtered: Filtered, projectDirs: readonly string[], isFile: (path: string) => boolean): Filtered {
  const { itemDirs } = filtered;
  if (itemDirs === undefined || itemDirs.every((dirs) => dirs.length === 0)) return filtered;
  const place = (token: string, dirs: readonly string[]): string => {
    for (const dir of dirs) {
      const path = join(dir, token);
      if (!isFile(path)) continue;
      const named = projectDirs.map((root) => relative(root, path)).find((from) => from !== '' && !from.startsWith('..') && !isAbsolute(from));
      if (named !== undefined) return named.split(sep).join('/');
    }
    return token;
  };
  const items = filtered.items.map((item, index) => {
    const dirs = itemDirs[index] ?? [];
    if (dirs.length === 0) return item;
    return item.map((line) => (CODE_FRAME.test(line) ? line : line.replace(PATH, (token) => place(token, dirs))));
  });
  return { ...filtered, items };
}

/** The project's folder as named and as resolved (turbo prints a task's folder resolved). */
export function projectDirsOf(projectDir: string): string[] {
  try {
    const real = realpathSync(projectDir);
    return real === projectDir ? [projectDir] : [projectDir, real];
  } catch {
    return [projectDir];
  }
}

/** A regular file there now. */
export function isFileNow(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}
