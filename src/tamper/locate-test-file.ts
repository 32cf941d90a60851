import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Failure } from '../filters/filter.js';
import { ancestors, goPackageDirs } from '../workspace/go-package-dirs.js';
import { stateOf } from './read-changed-file.js';

/**
 * A failing test's file as the repository knows it (relative, `/`), or `undefined` when it is not
 * in the repository. Runners name it relative to different places: the gate's cwd (vitest,
 * pytest's rootdir most of the time), the cargo workspace above it, or — Go — only the file's
 * name, in the package the test id names.
 */
export function locateTestFile(root: string, cwd: string, failure: Failure): string | undefined {
  const file = (failure.file ?? '').replace(/^file:\/\//, '');
  if (file === '') return undefined;
  if (isAbsolute(file)) return inRepository(root, file);
  const candidates = [cwd, ...ancestors(root, cwd)].map((dir) => resolve(dir, file));
  if (!file.includes('/') && file.endsWith('.go')) candidates.unshift(...goPackageDirs(root, cwd, failure.id).map((dir) => join(dir, file)));
  for (const candidate of candidates) {
    const path = inRepository(root, candidate);
    if (path !== undefined && stateOf(root, path).kind === 'file') return path;
  }
  return undefined;
}

function inRepository(root: string, file: string): string | undefined {
  const path = relative(root, file);
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return undefined;
  return path.split(sep).join('/');
}
