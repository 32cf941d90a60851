import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execGit } from '../git/exec-git.js';
import { fsPath } from '../git/path-bytes.js';
import type { StatusEntry } from '../git/parse-status.js';
import { isNestedRepo, readStatus } from '../git/read-status.js';
import { fingerprintFile, type HashBudget } from './fingerprint-file.js';

const MAX_DEPTH = 4;
const NO_COMMIT = /^0+$/;

/**
 * What is inside changed submodules and untracked repositories: the superproject's `git status`
 * lists each as one path whose fingerprint never changes, so a second edit inside would look like
 * a tree that already passed. Each gets its HEAD; each file that differs inside gets its own path
 * (`sub/src/a.ts`) and content fingerprint, so gates see and check it.
 */
export async function fingerprintNested(root: string, entries: StatusEntry[], budget: HashBudget, depth = 0): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of entries) {
    const dir = entry.path.replace(/\/$/, '');
    const inner = join(root, dir);
    // Without its own .git, `git -C` would climb to the superproject and describe that instead.
    if (!existsSync(fsPath(join(inner, '.git')))) {
      files[entry.path] = `gitlink:${entry.submodule?.recorded ?? 'none'}`;
      continue;
    }
    try {
      const status = await readStatus(inner);
      files[entry.path] = `repo:${status.head ?? '(initial)'}`;
      const paths = status.entries.flatMap((change) => (change.from === undefined ? [change.path] : [change.path, change.from]));
      paths.push(...(await committedInside(inner, entry, status.head)));
      for (const path of paths) files[`${dir}/${path}`] = fingerprintFile(join(inner, path), budget);
      const deeper = status.entries.filter(isNestedRepo);
      if (deeper.length > 0 && depth < MAX_DEPTH) {
        for (const [path, print] of Object.entries(await fingerprintNested(inner, deeper, budget, depth + 1))) files[`${dir}/${path}`] = print;
      }
    } catch {
      // Unreadable inside: never the same twice, so it can never count as already passed.
      files[entry.path] = `repo:unreadable:${process.hrtime.bigint()}`;
    }
  }
  return files;
}

/**
 * Files committed inside that the superproject does not have: for a submodule, those between the
 * commit it records and the one checked out; for an untracked repository, every tracked file.
 */
async function committedInside(inner: string, entry: StatusEntry, head: string | null): Promise<string[]> {
  if (head === null) return [];
  const recorded = entry.submodule?.recorded;
  if (recorded === head) return [];
  const all = ['ls-files', '-z'];
  const between = ['diff', '--name-only', '-z', '--no-renames', recorded ?? '', head];
  // The recorded commit may not be in the submodule's clone: then every tracked file counts.
  const output = recorded === undefined || NO_COMMIT.test(recorded) ? await execGit(inner, all) : await execGit(inner, between).catch(() => execGit(inner, all));
  return output.split('\0').filter(Boolean);
}
