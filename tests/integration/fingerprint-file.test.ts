import { mkdtempSync, openSync, closeSync, rmSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fingerprintFile, hashBudget } from '../../src/snapshot/fingerprint-file.js';

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

/** Until the clock the file system stamps a ctime with has moved past `since` (it ticks in jiffies, not nanoseconds). */
function waitForNewCtime(since: number): void {
  const probe = join(dir ?? '', 'probe');
  for (let tries = 0; tries < 1_000_000; tries++) {
    writeFileSync(probe, String(tries));
    if (statSync(probe).ctimeMs > since) return;
  }
  throw new Error('the file system clock did not move');
}

describe('fingerprintFile past the hash limit', () => {
  it('an edit that keeps the size and puts the mtime back is still seen (its ctime moved)', () => {
    dir = mkdtempSync(join(tmpdir(), 'gate-fingerprint-'));
    const big = join(dir, 'model.bin');
    writeFileSync(big, Buffer.alloc(5 * 1024 * 1024, 1));
    // A whole second, which utimes puts back exactly.
    const mtime = 1_700_000_000;
    utimesSync(big, mtime, mtime);
    const before = statSync(big);
    const fingerprint = fingerprintFile(big, hashBudget());
    expect(fingerprint).toMatch(/^stat:/);
    waitForNewCtime(before.ctimeMs);
    const file = openSync(big, 'r+');
    writeSync(file, Buffer.from([2]), 0, 1, 1024);
    closeSync(file);
    utimesSync(big, mtime, mtime);
    expect(statSync(big)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });
    expect(fingerprintFile(big, hashBudget())).not.toBe(fingerprint);
  });
});
