import { type Dirent, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';

/**
 * The dirs (relative to `root`, posix, sorted) that match the workspace globs and hold `manifest`.
 * `!glob` excludes; node_modules, dot-directories, symlinks and the root itself are never members.
 * Only the globs' fixed prefixes are walked, no deeper than a glob without `**` can reach.
 */
export function expandWorkspaceGlobs(root: string, globs: string[], manifest = 'package.json'): string[] {
  const patterns = globs.map(normaliseGlob).filter((glob) => glob !== '' && glob !== '!');
  const included = patterns.filter((glob) => !glob.startsWith('!'));
  const excluded = patterns.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1));
  if (included.length === 0) return [];
  const isIncluded = picomatch(included, { dot: false });
  const isExcluded = excluded.length > 0 ? picomatch(excluded, { dot: false }) : () => false;
  const candidates = new Set<string>();
  for (const glob of included) {
    const { base, glob: rest, isGlob } = picomatch.scan(glob);
    if (base === '..' || base.startsWith('../')) continue;
    if (!isGlob) candidates.add(base);
    else walk(root, base, rest.includes('**') ? Number.POSITIVE_INFINITY : rest.split('/').length, candidates);
  }
  return [...candidates]
    .filter((dir) => dir !== '' && isIncluded(dir) && !isExcluded(dir) && existsSync(join(root, dir, manifest)))
    .sort();
}

function normaliseGlob(glob: string): string {
  const negated = glob.startsWith('!');
  let body = (negated ? glob.slice(1) : glob).trim().replaceAll('\\', '/');
  while (body.startsWith('./')) body = body.slice(2);
  body = body.replace(/\/+$/, '');
  if (body === '.') body = '';
  return negated ? `!${body}` : body;
}

function walk(root: string, dir: string, depth: number, found: Set<string>): void {
  if (depth <= 0) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return; // A glob whose base does not exist matches nothing, as in npm and pnpm.
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const child = dir === '' ? entry.name : `${dir}/${entry.name}`;
    found.add(child);
    walk(root, child, depth - 1, found);
  }
}
