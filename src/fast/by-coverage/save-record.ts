import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { addRuns, type FindUnits, parseRecord } from './coverage-record.js';
import { recordPath } from './narrow-by-record.js';
import type { ProcessRun } from './read-v8-coverage.js';

/**
 * Adds a full run's processes to the gate's record (kept by content: what changed since it started
 * is not what ran) and writes it whole, or not at all. `fileOf`: where a recorded path's text is
 * read (a run on a copy: the copy's file, not the work tree's, which the agent may have edited).
 */
export function saveRuns(cacheDir: string, runs: ProcessRun[], started: number, findUnits: FindUnits, configs: string, fileOf: (path: string) => string = (path) => path): void {
  // A file changed since the run started may not be what ran (a margin where the file system keeps whole seconds).
  const read = (path: string) => {
    try {
      const { mtimeMs } = statSync(fileOf(path));
      return mtimeMs < (mtimeMs % 1000 === 0 ? started - 2000 : started) ? readFileSync(fileOf(path), 'utf8') : undefined;
    } catch {
      return undefined;
    }
  };
  const file = recordPath(cacheDir);
  let previous;
  try {
    previous = parseRecord(readFileSync(file, 'utf8'));
  } catch {
    previous = undefined;
  }
  const record = addRuns(previous, runs, read, findUnits, new Date().toISOString(), configs);
  writeFileSync(`${file}.tmp`, JSON.stringify(record), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** A record written elsewhere (a run on a copy of the start) replaces the gate's: whole, from another file system, then renamed. */
export function keepRecord(from: string, cacheDir: string): void {
  const written = recordPath(from);
  if (!existsSync(written)) return;
  const kept = recordPath(cacheDir);
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  copyFileSync(written, `${kept}.tmp`);
  renameSync(`${kept}.tmp`, kept);
}
