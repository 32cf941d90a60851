import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const MAX_FILE_BYTES = 1024 * 1024;
const BINARY_SNIFF = 8000;

export type PathState = { kind: 'file'; size: number } | { kind: 'gone' } | { kind: 'other' };

/** A file, gone, or something not to read (a folder, a submodule, a symlink that may lead anywhere). */
export function stateOf(root: string, path: string): PathState {
  try {
    const stats = lstatSync(join(root, path));
    return stats.isFile() ? { kind: 'file', size: stats.size } : { kind: 'other' };
  } catch (error) {
    return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR') ? { kind: 'gone' } : { kind: 'other' };
  }
}

/**
 * Reads changed files as text within a total budget. Files over 1 MiB and binary files (a NUL in
 * the first 8000 bytes, git's own test) are not read; `exhausted` tells that the budget ran out.
 */
export class FileReader {
  exhausted = false;
  constructor(
    private readonly root: string,
    private budget: number,
  ) {}

  read(path: string): string | undefined {
    const state = stateOf(this.root, path);
    if (state.kind !== 'file' || state.size > MAX_FILE_BYTES) return undefined;
    if (state.size > this.budget) {
      this.exhausted = true;
      return undefined;
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(this.root, path));
    } catch {
      return undefined;
    }
    this.budget -= bytes.length;
    if (bytes.subarray(0, BINARY_SNIFF).includes(0)) return undefined;
    return bytes.toString('utf8');
  }
}
