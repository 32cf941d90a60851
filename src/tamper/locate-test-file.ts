import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Failure } from '../filters/filter.js';
import { argumentsOf, goModulePath, parseGoModFile } from '../workspace/parse-go-mod.js';
import { readTextFile } from '../workspace/read-text-file.js';
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

/** The folders above `cwd` up to the repository root. */
function ancestors(root: string, cwd: string): string[] {
  const dirs: string[] = [];
  for (let dir = cwd; inRepository(root, dir) !== undefined; dir = dirname(dir)) dirs.push(dirname(dir));
  return dirs;
}

/** Where the package an id like "example.com/m/calc.TestSum" names is, by the go.mod (or go.work modules) it belongs to. */
function goPackageDirs(root: string, cwd: string, id: string): string[] {
  const at = id.search(/\.(?:Test|Example|Fuzz|Benchmark)[\p{L}\p{N}_]*(?:\/|$)/u);
  if (at <= 0) return [];
  try {
    return moduleDirs(root, cwd, id.slice(0, at));
  } catch {
    return []; // an unreadable go.mod: the test is not found, nothing more
  }
}

function moduleDirs(root: string, cwd: string, pkg: string): string[] {
  const modules = [cwd, ...ancestors(root, cwd)].filter((dir) => readTextFile(dir, 'go.mod') !== undefined);
  const work = readTextFile(cwd, 'go.work');
  if (work !== undefined) modules.push(...argumentsOf(parseGoModFile(work), 'use').map((dir) => resolve(cwd, dir)));
  const dirs: string[] = [];
  for (const dir of modules) {
    const text = readTextFile(dir, 'go.mod');
    const module = text === undefined ? undefined : goModulePath(parseGoModFile(text));
    if (module === undefined) continue;
    if (pkg === module) dirs.push(dir);
    else if (pkg.startsWith(`${module}/`)) dirs.push(join(dir, pkg.slice(module.length + 1)));
  }
  return dirs;
}
