import { closeSync, type Dirent, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { isAlive } from '../state/process-alive.js';

// Python's bytecode cache for gate's runs. Python trusts a .pyc whose header names its source's
// size and modification second: a source changed again within that second, to the same size,
// would run as the old code. So no run reads a .pyc from the tree: every Python a gate starts
// reads and writes them under one folder of gate's state (PYTHONPYCACHEPREFIX), and after each run
// gate removes every .pyc that run wrote for a source last modified in a second the run had reached
// (whose content the .pyc may not hold), and those beside them whose source is gone. Compiling each
// module at every run cost click's one-function stop 1.9 of its 3.5 s of pytest.

/** The folder, shared by the gates of a repository: the standard library's and the venv's modules are compiled once. */
export function bytecodeFolder(cacheDir: string): string {
  return join(dirname(cacheDir), 'python-bytecode');
}

/** What a run's environment gets: reads and writes under `folder`, whatever the user's own PYTHONDONTWRITEBYTECODE says. */
export function bytecodeEnv(folder: string): { PYTHONPYCACHEPREFIX: string } {
  return { PYTHONPYCACHEPREFIX: folder };
}

/** No .pyc read or written: an empty prefix (a baseline copy's run, whose paths change every time). */
export function noBytecodeEnv(cacheDir: string): { PYTHONDONTWRITEBYTECODE: string; PYTHONPYCACHEPREFIX: string } {
  return { PYTHONDONTWRITEBYTECODE: '1', PYTHONPYCACHEPREFIX: join(cacheDir, 'no-pyc') };
}

/**
 * Marks a run as started at `startedMs`: a marker left by a run whose gate process is gone (killed
 * before its check) makes the next run check the folder for it first. Markers of live processes —
 * the gates running beside this one — are theirs to check.
 */
export function beginBytecodeRun(folder: string, runId: string, startedMs: number): () => void {
  const marker = join(folder, `.run-${process.pid}-${runId}`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(folder)) {
      const owner = /^\.run-(\d+)-/.exec(name);
      if (!name.startsWith('.run-') || (owner && isAlive(Number(owner[1])))) continue;
      const since = Number(readText(join(folder, name)));
      checkBytecode(folder, Number.isFinite(since) ? since : 0);
      unlinkQuietly(join(folder, name));
    }
    writeFileSync(marker, String(startedMs), { mode: 0o600 });
  } catch {
    // A folder gate can't write: Python can't either, and compiles as it goes.
  }
  return () => {
    checkBytecode(folder, startedMs);
    unlinkQuietly(marker);
  };
}

/**
 * Removes each .pyc written since `sinceMs` (a second's margin) whose source was last modified in
 * a second at or after the one before `sinceMs`, or can't be read, and each .pyc beside them whose
 * source is gone. Only folders whose entries changed since then are read (Python writes a .pyc by
 * renaming it into place, which marks its folder). Never throws.
 */
export function checkBytecode(folder: string, sinceMs: number): void {
  const firstSecond = Math.floor(sinceMs / 1000) - 1;
  const visit = (dir: string): boolean => {
    let entries: Dirent[];
    let changed: boolean;
    try {
      changed = statSync(dir).mtimeMs >= sinceMs - 1000;
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    let removed = 0;
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (visit(path)) removed++;
      } else if (changed && entry.name.endsWith('.pyc') && !keep(path, folder, sinceMs, firstSecond)) {
        unlinkQuietly(path);
        removed++;
      }
    }
    // A folder left empty goes (not the top one).
    if (removed === entries.length && dir !== folder) {
      try {
        rmdirSync(dir);
        return true;
      } catch {
        return false;
      }
    }
    return false;
  };
  visit(folder);
}

function keep(path: string, folder: string, sinceMs: number, firstSecond: number): boolean {
  const source = sourceOf(path.slice(folder.length + 1));
  try {
    if (source === undefined) return false;
    statSync(source);
    return statSync(path).mtimeMs < sinceMs - 1000 || trusted(path, firstSecond);
  } catch {
    return false; // its source is gone, or it is: either way, no .pyc to trust
  }
}

/**
 * The source a .pyc under the prefix stands for: Python writes `<prefix><source's folder>/<name>.<tag>[.opt-N].pyc`.
 * Undefined when the name is not of that form.
 */
function sourceOf(name: string): string | undefined {
  const file = name.slice(name.lastIndexOf(sep) + 1);
  const stem = file.split('.')[0];
  if (stem === undefined || stem === '' || file.split('.').length < 3) return undefined;
  return join(sep, dirname(name), `${stem}.py`);
}

/** Whether a timestamp .pyc's source second comes before `firstSecond`; a hash-checked one always is. */
function trusted(path: string, firstSecond: number): boolean {
  const header = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    if (readSync(fd, header, 0, 16, 0) < 16) return false;
  } finally {
    closeSync(fd);
  }
  // PEP 552: bit 0 of the flags set means validated by the source's hash, not its time.
  if ((header.readUInt32LE(4) & 1) === 1) return true;
  return header.readUInt32LE(8) < (firstSecond >>> 0);
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
