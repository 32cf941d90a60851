import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { addRuns, type FindUnits, parseRecord } from './coverage-record.js';
import { recordPath } from './narrow-by-record.js';
import type { ProcessRun } from './read-v8-coverage.js';

/**
 * Adds a full run's processes to the gate's record (kept by content: what changed since it started
 * is not what ran) and writes it whole, or not at all.
 */
export function saveRuns(cacheDir: string, runs: ProcessRun[], started: number, findUnits: FindUnits, configs: string): void {
  // A file changed since the run started may not be what ran (a margin where the file system keeps whole seconds).
  const read = (path: string) => {
    try {
      const { mtimeMs } = statSync(path);
      return mtimeMs < (mtimeMs % 1000 === 0 ? started - 2000 : started) ? readFileSync(path, 'utf8') : undefined;
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
