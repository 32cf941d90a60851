import { mkdirSync, readFileSync, renameSync, writeFileSync, rmSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';

export type ReadResult<T> = { value: T | undefined; corrupt: boolean };

/** gate's state under the git dir can't be written (a file where a folder should be, no space, read-only). */
export class StateError extends Error {
  override name = 'StateError';
  constructor(path: string, cause: unknown) {
    super(`cannot write ${path}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * By name, not instanceof: the hook's CommonJS bundle and the ES module build each have their own
 * copy of this class, and an error thrown in one is caught in the other.
 */
export function isStateError(error: unknown): error is StateError {
  return error instanceof Error && error.name === 'StateError';
}

/** The state folder, private to its owner: logs hold whatever the tools printed. */
export function ensureStateDir(path: string): void {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new StateError(path, error);
  }
}

/** Reads a JSON state file; a missing file is normal, an unreadable or invalid one is "corrupt". */
export function readState<T>(path: string, isValid: (value: unknown) => value is T): ReadResult<T> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return { value: undefined, corrupt: false };
    return { value: undefined, corrupt: true };
  }
  try {
    const value: unknown = JSON.parse(text);
    return isValid(value) ? { value, corrupt: false } : { value: undefined, corrupt: true };
  } catch {
    return { value: undefined, corrupt: true };
  }
}

/** rmSync(path, { force: true }) for a file, without loading Node's rimraf (Node 20 does for every rmSync). */
export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
  }
}

/** Temp file and rename: a reader never sees half a file, even when a harness kills us mid-write. */
export function writeState(path: string, value: unknown): void {
  ensureStateDir(dirname(path));
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(value)}\n`, { mode: 0o600 });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new StateError(path, error);
  }
}
