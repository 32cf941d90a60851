import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { argumentsOf, goModulePath, parseGoModFile } from './parse-go-mod.js';
import { readTextFile } from './read-text-file.js';

// The package part of a go test id: "example.com/m/calc.TestSum/sub" → "example.com/m/calc".
const TEST_NAME = /\.(?:Test|Example|Fuzz|Benchmark)[\p{L}\p{N}_]*(?:\/|$)/u;

/**
 * The folders (absolute) the package a go test id like "example.com/m/calc.TestSum" names may be
 * in, by the go.mod of `cwd` or a folder above it up to `root` (and the modules go.work uses): go
 * test names a test's file by its base name alone (`calc_test.go:12:`), in the package's folder.
 * None when the id names no test or no module holds its package.
 */
export function goPackageDirs(root: string, cwd: string, id: string): string[] {
  const at = id.search(TEST_NAME);
  if (at <= 0) return [];
  try {
    return moduleDirs(root, cwd, id.slice(0, at));
  } catch {
    return []; // an unreadable go.mod: the package is not placed, nothing more
  }
}

/** A file name as go test prints a test's (`x_test.go`): no folder, which is its package's. */
export function isBareGoFile(file: string | undefined): file is string {
  return file?.endsWith('.go') === true && !file.includes('/') && !file.includes('\\');
}

/** The folders above `cwd` up to the repository root. */
export function ancestors(root: string, cwd: string): string[] {
  const dirs: string[] = [];
  for (let dir = cwd; isInside(root, dirname(dir)) && dirname(dir) !== dir; dir = dirname(dir)) dirs.push(dirname(dir));
  return dirs;
}

function isInside(root: string, dir: string): boolean {
  const path = relative(root, dir);
  return !path.startsWith('..') && !isAbsolute(path);
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
