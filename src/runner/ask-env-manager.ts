import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readState, writeState } from '../state/state-files.js';
import { findProgram } from './find-program.js';
import { BIN, isVenv, projectDirs, type ProjectEnv } from './project-env.js';

type Manager = 'uv' | 'poetry' | 'hatch' | 'pdm';

/** The files that say a project uses a manager, and what to ask it for the environment's folder (or its python). */
const MANAGERS: Array<{ manager: Manager; lock: string; ask: string[] | undefined }> = [
  { manager: 'uv', lock: 'uv.lock', ask: undefined },
  { manager: 'poetry', lock: 'poetry.lock', ask: ['env', 'info', '--path'] },
  { manager: 'pdm', lock: 'pdm.lock', ask: ['info', '--python'] },
  { manager: 'hatch', lock: 'hatch.toml', ask: ['env', 'find'] },
];

const SECTION = /^\[tool\.(uv|poetry|hatch|pdm)[\].]/m;
const TIMEOUT_MS = 30_000;

/** Where the managers' answers are kept: beside the gates' cache folders (a gate's is named by gateFileName, never with a leading dot). */
export function envCacheFile(cacheDir: string): string {
  return join(cacheDir, '.project-env.json');
}

interface Cached {
  /** The environment's folder, by a hash of the manager, its program and the manifest's and lock's text. */
  entries: Record<string, string>;
}

const KEPT = 32;

// One question per project folder and manifest for the whole process: gates run side by side.
const asked = new Map<string, Promise<ProjectEnv | undefined>>();

/**
 * The environment the project's manager keeps, when the project names one (its lock file, or its
 * [tool.X] section in pyproject.toml) and that tool is installed. Asking costs a process, so an
 * answer is kept in `cacheFile` (gate's state) under the manifest's and lock's content.
 */
export function askEnvManager(cwd: string, env: NodeJS.ProcessEnv, cacheFile: string | undefined): Promise<ProjectEnv | undefined> {
  const project = findManagedProject(cwd);
  if (project === undefined) return Promise.resolve(undefined);
  const { manager, dir, files } = project;
  if (manager === 'uv') return Promise.resolve(uvEnv(dir, env));
  const spec = MANAGERS.find((entry) => entry.manager === manager);
  const tool = findProgram(manager, dir, env['PATH'] ?? '');
  if (spec?.ask === undefined || !('found' in tool)) return Promise.resolve(undefined);
  // By content, not folder: the copy of the starting commit that a baseline run uses gets the same answer.
  const key = createHash('sha256').update(JSON.stringify([manager, tool.found, ...files.map(readText)])).digest('hex');
  const cached = cacheFile === undefined ? undefined : readCache(cacheFile).entries[key];
  if (cached !== undefined && isVenv(cached)) return Promise.resolve({ dir: cached, bin: join(cached, BIN), source: manager });
  let answer = asked.get(key);
  if (answer === undefined) {
    answer = ask(tool.found, spec.ask, dir, env).then((line) => {
      const found = line === undefined ? undefined : envFromAnswer(manager, resolve(dir, line));
      if (found && cacheFile !== undefined) saveCache(cacheFile, key, found.dir);
      return found;
    });
    asked.set(key, answer);
  }
  return answer;
}

/** The nearest folder (from `cwd` up to the repository root) whose files name a manager. */
export function findManagedProject(cwd: string): { manager: Manager; dir: string; files: string[] } | undefined {
  for (const dir of projectDirs(cwd)) {
    const pyproject = join(dir, 'pyproject.toml');
    const text = readText(pyproject);
    const byLock = MANAGERS.find((entry) => isFile(join(dir, entry.lock)));
    const bySection = text === undefined ? undefined : SECTION.exec(text)?.[1];
    const manager = byLock?.manager ?? MANAGERS.find((entry) => entry.manager === bySection)?.manager;
    if (manager !== undefined) {
      const lock = MANAGERS.find((entry) => entry.manager === manager)?.lock ?? '';
      return { manager, dir, files: [pyproject, join(dir, lock)] };
    }
    if (text !== undefined) return undefined;
  }
  return undefined;
}

/** uv keeps the project's environment in .venv unless UV_PROJECT_ENVIRONMENT says where: no need to ask it. */
function uvEnv(dir: string, env: NodeJS.ProcessEnv): ProjectEnv | undefined {
  const where = env['UV_PROJECT_ENVIRONMENT'];
  if (!where) return undefined;
  const venv = resolve(dir, where);
  return isVenv(venv) ? { dir: venv, bin: join(venv, BIN), source: 'uv' } : undefined;
}

function envFromAnswer(manager: Manager, answer: string): ProjectEnv | undefined {
  // pdm names the interpreter; the others the environment's folder.
  const venv = manager === 'pdm' ? dirname(dirname(answer)) : answer;
  return isVenv(venv) ? { dir: venv, bin: join(venv, BIN), source: manager } : undefined;
}

function ask(program: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((done) => {
    execFile(program, args, { cwd, env, encoding: 'utf8', timeout: TIMEOUT_MS, killSignal: 'SIGKILL' }, (error, stdout) => {
      const line = stdout.split('\n').map((text) => text.trim()).find(Boolean);
      done(error ? undefined : line);
    });
  });
}

function readCache(file: string): Cached {
  return readState(file, isCached).value ?? { entries: {} };
}

function saveCache(file: string, key: string, dir: string): void {
  try {
    const kept = Object.entries(readCache(file).entries).filter(([old]) => old !== key).slice(-(KEPT - 1));
    writeState(file, { entries: Object.fromEntries([...kept, [key, dir]]) });
  } catch {
    // Only a saving: the next run asks again.
  }
}

function isCached(value: unknown): value is Cached {
  if (typeof value !== 'object' || value === null || !('entries' in value) || typeof value.entries !== 'object' || value.entries === null) return false;
  return Object.values(value.entries).every((dir: unknown) => typeof dir === 'string');
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
