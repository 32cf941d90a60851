import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fastHash } from '../hash/fast-hash.js';
import { listDir, sitePackagesFor } from './editable-installs.js';

/**
 * What the gates run with besides the tree: the installed packages and the Node that runs them.
 * Each part by name (what the human is told changed), its fingerprint as the value. Lockfiles are
 * in the tree; these are what an install made of them, which a baseline copy borrows live.
 */
export type Environment = Record<string, string>;

/** What installers leave in node_modules: a record of what is installed there (npm, pnpm, yarn). */
const NODE_INSTALL_RECORDS = ['.package-lock.json', join('.pnpm', 'lock.yaml'), '.yarn-state.yml', '.yarn-integrity'];
/** Past this size a record is fingerprinted by size and time, not read. */
const READ_LIMIT = 16 * 1024 * 1024;

/** Readdirs and a few small reads: cheap enough for the prompt hook. `dirs`: the repository root and the project folder. */
export function fingerprintEnvironment(dirs: string[], env: NodeJS.ProcessEnv): Environment {
  const roots = [dirs[0] ?? '.', realPath(dirs[0] ?? '.')];
  const name = (path: string) => {
    const inside = roots.map((root) => relative(root, path)).find((rel) => !rel.startsWith('..'));
    return inside === undefined ? path : inside || '.';
  };
  const parts: Environment = { node: process.version };
  // lib64 is often a link to lib: one environment, one part.
  for (const site of new Set(sitePackagesFor(dirs, env).map(realPath))) {
    // A dist-info folder's name carries the version: an upgrade, an install or a removal renames one.
    const installed = listDir(site).filter((entry) => /\.(dist-info|egg-info|pth|egg-link)$/.test(entry));
    const venv = site.replace(/[\\/](?:lib|lib64|Lib)(?:[\\/]python[^\\/]*)?[\\/]site-packages$/, '');
    parts[`${name(venv)} (installed Python packages)`] = fastHash(installed.sort().join('\n'));
  }
  for (const dir of new Set(dirs)) {
    for (const record of NODE_INSTALL_RECORDS) {
      const path = join(dir, 'node_modules', record);
      const print = fingerprint(path);
      if (print !== undefined) parts[`${name(path)} (installed packages)`] = print;
    }
  }
  return parts;
}

/** The parts that differ between two environments, by name (one that appeared or went counts). */
export function environmentChanges(before: Environment, after: Environment): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((part) => before[part] !== after[part]).sort();
}

/** One string for a state's key: equal environments, equal digests. */
export function environmentDigest(parts: Environment): string {
  return fastHash(
    Object.keys(parts)
      .sort()
      .map((part) => `${part}\0${parts[part]}`)
      .join('\0'),
  );
}

export function isEnvironment(value: unknown): value is Environment {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((print) => typeof print === 'string');
}

function fingerprint(path: string): string | undefined {
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return undefined;
    return stats.size > READ_LIMIT ? `stat:${stats.size}:${stats.mtimeMs}` : fastHash(readFileSync(path));
  } catch {
    return undefined;
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
