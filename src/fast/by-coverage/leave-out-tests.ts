import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../package/package-root.js';
import type { RunEnv } from '../planner.js';

/** Older lists than this are gone: a stop (and its baseline run) reads its own within minutes. */
const KEEP_MS = 60 * 60 * 1000;

/**
 * The environment that makes a pytest run leave out `ids` (node ids): gate's plugin
 * (python/stopgate_select.py), loaded by `-p`, deselects them from a list under the gate's cache.
 * Named by its content, so a baseline run of the same stop reads the same one.
 */
export function leaveOutTests(cacheDir: string, ids: string[]): RunEnv {
  const text = JSON.stringify(ids);
  const dir = join(cacheDir, 'leave-out');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${createHash('sha1').update(text).digest('hex').slice(0, 16)}.json`);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (path !== file && Date.now() - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true });
    } catch {
      // gone already
    }
  }
  writeFileSync(file, text, { mode: 0o600 });
  return { PYTHONPATH: join(packageRoot(), 'python'), PYTEST_ADDOPTS: '-p stopgate_select', STOPGATE_LEAVE_OUT: file };
}
