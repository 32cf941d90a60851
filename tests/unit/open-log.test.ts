import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLog } from '../../src/runner/open-log.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-open-log-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openLog', () => {
  it('recreates the file owner-only, whatever the old one was, and writes bytes and text in order', () => {
    const path = join(dir, 'test.log');
    writeFileSync(path, 'the last run\n', { mode: 0o644 });
    const log = openLog(path);
    log.write(Buffer.from('first\n'));
    log.write('second\n');
    log.end();
    log.write('after the end\n');
    expect(readFileSync(path, 'utf8')).toBe('first\nsecond\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('gives up on a log it cannot write without throwing', () => {
    const log = openLog(join(dir, 'no-such-folder', 'test.log'));
    expect(() => {
      log.write('lost\n');
      log.end();
    }).not.toThrow();
  });
});
