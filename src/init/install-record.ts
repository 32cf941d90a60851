import { join } from 'node:path';
import { fastHash } from '../hash/fast-hash.js';
import type { HarnessName } from '../harness/adapters.js';
import { readState, writeState } from '../state/state-files.js';

/** What init wrote, so that uninstall can give back a file exactly as it was before. */
export interface InstallRecord {
  files: Array<{ file: string; before: string | null; writtenHash: string }>;
}

export function recordPath(stateDir: string, harness: HarnessName, personal: boolean): string {
  return join(stateDir, `install-${harness}-${personal ? 'personal' : 'team'}.json`);
}

export function readRecord(path: string): InstallRecord | undefined {
  return readState(path, isRecord).value;
}

export function writeRecord(path: string, previous: InstallRecord | undefined, written: Array<{ file: string; before: string | undefined; after: string }>): void {
  const files = new Map((previous?.files ?? []).map((entry) => [entry.file, entry]));
  for (const { file, before, after } of written) {
    // The first "before" is the one to restore: a second init must not make its own output the original.
    const prior = files.get(file);
    files.set(file, { file, before: prior ? prior.before : (before ?? null), writtenHash: hashText(after) });
  }
  writeState(path, { files: [...files.values()] });
}

export function hashText(text: string): string {
  return fastHash(text);
}

function isRecord(value: unknown): value is InstallRecord {
  if (typeof value !== 'object' || value === null || !('files' in value) || !Array.isArray(value.files)) return false;
  return value.files.every(
    (entry: unknown) =>
      typeof entry === 'object' &&
      entry !== null &&
      'file' in entry &&
      typeof entry.file === 'string' &&
      'writtenHash' in entry &&
      typeof entry.writtenHash === 'string' &&
      'before' in entry &&
      (entry.before === null || typeof entry.before === 'string'),
  );
}
