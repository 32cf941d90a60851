import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// What makes a top-level folder an environment: see src/snapshot/environment-paths.ts, which leaves
// its files out of every change whatever .gitignore says.
const MARKERS = ['pyvenv.cfg', 'conda-meta', 'CACHEDIR.TAG'];
const NAMED = /^(?:__pycache__|\.tox|\.nox|.+\.egg-info)$/;

/**
 * The environment folders at the top of `dir` (a virtualenv, a conda environment, a tagged cache,
 * bytecode, tox's) that git does not ignore, each as the .gitignore line that would (`.venv/`).
 * node_modules is the caller's (it says where stopgate is). One `git check-ignore` for all of them.
 */
export function findUnignoredEnvironments(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== '.git' && entry.name !== 'node_modules')
      .map((entry) => entry.name)
      .filter((name) => NAMED.test(name) || MARKERS.some((marker) => existsSync(join(dir, name, marker))))
      .sort();
  } catch {
    return [];
  }
  if (names.length === 0) return [];
  const result = spawnSync('git', ['check-ignore', '--stdin', '-z', '--no-index'], { cwd: dir, input: names.map((name) => `${name}/\0`).join(''), encoding: 'utf8' });
  if (result.status !== 0 && result.status !== 1) return [];
  const ignored = new Set(result.stdout.split('\0').filter(Boolean));
  return names.filter((name) => !ignored.has(`${name}/`)).map((name) => `${name}/`);
}
