import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SetupError } from '../errors.js';

export interface WriteOp {
  path: string;
  display: string;
  /** What the file held when the plan was made (undefined: absent). */
  before: string | undefined;
  /** What to leave there (undefined: remove the file). */
  after: string | undefined;
}

/**
 * Writes each file atomically (temp file + rename, through a symlink to its target, keeping the
 * mode). A file that changed since the plan was made is not overwritten: someone else edited it.
 */
export function applyChanges(ops: WriteOp[]): void {
  for (const op of ops) {
    const current = readIfPresent(op.path);
    if (current !== op.before) {
      throw new SetupError(`${op.display} changed while gate was working on it; nothing more was written. Run the command again.`);
    }
  }
  // Every file must be writable before any is written: a half-applied install is worse than none.
  for (const op of ops) assertWritable(op);
  for (const op of ops) {
    const target = resolveTarget(op.path);
    if (op.after === undefined) {
      rmSync(target, { force: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    const mode = modeOf(target);
    const temp = `${target}.gate-${process.pid}.tmp`;
    try {
      writeFileSync(temp, op.after, mode === undefined ? {} : { mode });
      renameSync(temp, target);
    } catch (error) {
      rmSync(temp, { force: true });
      const reason = error instanceof Error ? error.message : String(error);
      throw new SetupError(`could not write ${op.display}: ${reason}`);
    }
  }
}

function assertWritable(op: WriteOp): void {
  const target = resolveTarget(op.path);
  try {
    if (existsSync(target)) closeSync(openSync(target, 'r+'));
    else accessSync(existingAncestor(dirname(target)), constants.W_OK);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SetupError(`${op.display} is not writable (${reason}); nothing was written.`);
  }
}

function existingAncestor(dir: string): string {
  return existsSync(dir) || dirname(dir) === dir ? dir : existingAncestor(dirname(dir));
}

export function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function resolveTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}
