import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, resolve } from 'node:path';

export type ProgramLookup = { found: string } | { missing: 'ENOENT' | 'EACCES' };

/**
 * Where execvp(3) would find `program` from `cwd` with this PATH: a name with a slash as it is, any
 * other in each PATH folder in turn (an empty entry is the current folder). EACCES when the only
 * files of that name cannot be run. Asked before a spawn, so that a program gate runs under a
 * watchdog (`timeout`, which exits 127 for it) is still told apart from one that ran and exited 127.
 */
export function findProgram(program: string, cwd: string, path: string): ProgramLookup {
  if (program === '') return { missing: 'ENOENT' };
  const candidates = program.includes('/') ? [isAbsolute(program) ? program : resolve(cwd, program)] : path.split(delimiter).map((dir) => resolve(cwd, dir || '.', program));
  let denied = false;
  for (const candidate of candidates) {
    if (!isFile(candidate)) continue;
    if (canRun(candidate)) return { found: candidate };
    denied = true;
  }
  return { missing: denied ? 'EACCES' : 'ENOENT' };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function canRun(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

