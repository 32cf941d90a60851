import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

/**
 * Lends a copy of the repository (at `copy`) the dependencies installed in the repository (at
 * `root`), for the folders in `dirs` (relative to both): node_modules, .venv, venv. A workspace's
 * node_modules holds links to its own packages (`@acme/shared` → packages/shared): in the copy
 * those point at the copy's packages, or the baseline run would test the turn's changed code.
 * Returns the links that still lead into the work tree (to a folder the copy does not have):
 * the baseline run could reach the edited code through them.
 */
export function lendDependencies(root: string, copy: string, dirs: Iterable<string>): string[] {
  const live: string[] = [];
  for (const dir of dirs) {
    const from = join(root, dir);
    const to = join(copy, dir);
    if (!existsSync(to)) continue;
    if (existsSync(join(from, 'node_modules')) && !existsSync(join(to, 'node_modules'))) mirrorNodeModules(join(from, 'node_modules'), join(to, 'node_modules'), root, copy, live);
    for (const name of ['.venv', 'venv']) {
      if (existsSync(join(from, name)) && !existsSync(join(to, name))) symlinkSync(join(from, name), join(to, name));
    }
  }
  return live;
}

// A folder of links, one per installed package (scopes are folders of links too).
function mirrorNodeModules(from: string, to: string, root: string, copy: string, live: string[]): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.name.startsWith('@') && entry.isDirectory()) {
      mirrorNodeModules(source, target, root, copy, live);
      continue;
    }
    const own = ownPackage(source, root);
    const inCopy = own === undefined ? undefined : join(copy, own);
    if (inCopy !== undefined && !existsSync(inCopy)) live.push(`${relative(root, source)} → ${own}`);
    symlinkSync(inCopy !== undefined && existsSync(inCopy) ? inCopy : source, target);
  }
}

/** Where a link to one of the repository's own folders points, relative to the root; undefined for anything else. */
function ownPackage(source: string, root: string): string | undefined {
  try {
    if (!lstatSync(source).isSymbolicLink()) return undefined;
    const path = relative(root, realpathSync(source));
    if (path === '' || path.startsWith('..') || isAbsolute(path) || path.split(sep).includes('node_modules')) return undefined;
    return path;
  } catch {
    return undefined;
  }
}

/** The folders (relative, '' for the root) of a tree's package.json files, outside node_modules. */
export function packageDirs(paths: string[]): string[] {
  const dirs = paths.filter((path) => (path === 'package.json' || path.endsWith('/package.json')) && !/(^|\/)node_modules\//.test(path)).map((path) => dirname(path));
  return [...new Set(dirs.map((dir) => (dir === '.' ? '' : dir)))];
}
