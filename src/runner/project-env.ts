import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** A Python environment of the project's own, whose programs come before PATH's. */
export interface ProjectEnv {
  /** The environment's folder: what VIRTUAL_ENV names. */
  dir: string;
  /** Its programs' folder (Scripts on Windows). */
  bin: string;
  /** Where it was found, as status and doctor say it: "$VIRTUAL_ENV", ".venv", "venv", "uv", "poetry", "hatch", "pdm". */
  source: string;
}

export const BIN = process.platform === 'win32' ? 'Scripts' : 'bin';

/**
 * The environment a developer would have activated, found without starting a process: $VIRTUAL_ENV
 * when its folder exists, else the nearest `.venv` or `venv` (a folder with pyvenv.cfg: a source
 * folder named venv is not one) from `cwd` up to the repository root.
 */
export function findLocalEnv(cwd: string, env: NodeJS.ProcessEnv): ProjectEnv | undefined {
  const active = env['VIRTUAL_ENV'];
  if (active && isAbsolute(active) && isDir(join(active, BIN))) return { dir: active, bin: join(active, BIN), source: '$VIRTUAL_ENV' };
  for (const dir of projectDirs(cwd)) {
    for (const name of ['.venv', 'venv']) {
      const venv = join(dir, name);
      if (isVenv(venv)) return { dir: venv, bin: join(venv, BIN), source: name };
    }
  }
  return undefined;
}

/**
 * `cwd` and each folder above it up to the one holding `.git`, nearest first. Outside a repository
 * (the copy of the starting commit a baseline run uses, which borrows the project's .venv at its
 * root) up to the home folder or the filesystem root, neither included.
 */
export function projectDirs(cwd: string, home = homedir()): string[] {
  const dirs: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (dirs.length > 0 && (dir === home || dirname(dir) === dir)) return dirs;
    dirs.push(dir);
    if (existsSync(join(dir, '.git')) || dir === home) return dirs;
  }
}

export function isVenv(dir: string): boolean {
  return existsSync(join(dir, 'pyvenv.cfg')) && isDir(join(dir, BIN));
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
