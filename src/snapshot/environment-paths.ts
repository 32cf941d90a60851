import type { StatusEntry } from '../git/parse-status.js';

// A folder holding one of these is an environment or a cache, never source: a virtualenv
// (`pyvenv.cfg`, python -m venv, virtualenv, uv), a conda environment, and every cache that tags
// itself (https://bford.info/cachedir/: cargo's target/, .pytest_cache, .mypy_cache, .ruff_cache).
const MARKERS = ['pyvenv.cfg', 'conda-meta/history', 'CACHEDIR.TAG'];
// Folders that are environment by name: installed packages, bytecode, an editable install's metadata, tox's and nox's environments.
const NAMED = /(?:^|\/)(?:node_modules|__pycache__|[^/]+\.egg-info|\.tox|\.nox)\//;

/**
 * Which untracked paths are the environment the project runs in, not its source, whatever
 * .gitignore says (a project that forgot `.venv/`): read from the paths `git status` listed, with
 * no look at the disk (the no-change stop is the hot path). Tracked files there still count: test
 * fixtures commit node_modules folders and venvs of their own.
 */
export function environmentPaths(entries: StatusEntry[]): (path: string) => boolean {
  const roots: string[] = [];
  for (const entry of entries) {
    if (entry.code !== '??') continue;
    for (const marker of MARKERS) {
      if (entry.path.endsWith(`/${marker}`)) roots.push(entry.path.slice(0, -marker.length));
    }
  }
  return (path) => NAMED.test(path) || roots.some((root) => path.startsWith(root));
}
