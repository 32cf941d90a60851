import { readFileSync, writeFileSync } from 'node:fs';
import { ensureStateDir, removeFile, StateError } from './state-files.js';
import { dirname } from 'node:path';
import { isAlive } from './process-alive.js';

export type StopLock = { kind: 'held'; release(): void } | { kind: 'answered-elsewhere' };

const POLL_MS = 100;

/**
 * One run of the gates per session and tree at a time. The same stop can arrive twice at once: a
 * repo with both a Copilot hook and a Claude-format entry (Copilot runs both), a plugin next to a
 * settings install, a harness that retries. The second waits for the first; if the first was
 * checking the very same tree, its answer stands for both and the second lets its copy through
 * (any one block blocks). A lock left by a process that died is taken over.
 */
export async function lockStop(path: string, digest: string, maxWaitMs: number): Promise<StopLock> {
  ensureStateDir(dirname(path));
  const deadline = Date.now() + maxWaitMs;
  let waitedFor: string | undefined;
  let unreadable = 0;
  for (;;) {
    try {
      writeFileSync(path, JSON.stringify({ pid: process.pid, digest }), { flag: 'wx' });
      if (waitedFor === digest) {
        removeFile(path);
        return { kind: 'answered-elsewhere' };
      }
      return { kind: 'held', release: () => removeFile(path) };
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw new StateError(path, error);
    }
    const holder = readHolder(path);
    // An empty file may be one being written this very moment: give its writer a few polls.
    unreadable = holder ? 0 : unreadable + 1;
    if ((holder && !isAlive(holder.pid)) || unreadable > 5 || Date.now() > deadline) {
      removeFile(path);
      continue;
    }
    if (holder) waitedFor = holder.digest;
    await new Promise((resolveWait) => setTimeout(resolveWait, POLL_MS));
  }
}

function readHolder(path: string): { pid: number; digest: string } | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof value === 'object' && value !== null && 'pid' in value && 'digest' in value && typeof value.pid === 'number' && typeof value.digest === 'string') {
      return { pid: value.pid, digest: value.digest };
    }
  } catch {
    // Half-written by a process that is creating it right now, or garbage: treated as stale below.
  }
  return undefined;
}
