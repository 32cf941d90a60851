import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recallFailures, rememberFailures } from '../../src/verdict/failure-memory.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-failure-memory-'));
  path = join(dir, 'failures.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('failure memory, per tree and gate', () => {
  it('nothing known: every id unchecked', () => {
    expect(recallFailures(path, 'tree', 'test', ['a', 'b'])).toEqual({ failing: [], unchecked: ['a', 'b'] });
  });

  it('a full run answers for every id: what it did not list passed', () => {
    rememberFailures(path, 'tree', 'test', ['a']);
    expect(recallFailures(path, 'tree', 'test', ['a', 'b'])).toEqual({ failing: ['a'], unchecked: [] });
    expect(recallFailures(path, 'other-tree', 'test', ['a'])).toEqual({ failing: [], unchecked: ['a'] });
    expect(recallFailures(path, 'tree', 'lint', ['a'])).toEqual({ failing: [], unchecked: ['a'] });
  });

  it('a narrowed run answers only for the ids it checked, and runs add up', () => {
    rememberFailures(path, 'tree', 'test', ['a'], ['a', 'b']);
    expect(recallFailures(path, 'tree', 'test', ['a', 'b', 'c'])).toEqual({ failing: ['a'], unchecked: ['c'] });
    rememberFailures(path, 'tree', 'test', [], ['c']);
    expect(recallFailures(path, 'tree', 'test', ['a', 'b', 'c', 'd'])).toEqual({ failing: ['a'], unchecked: ['d'] });
  });

  it('a narrowed run on a tree with a full record adds its failures to it; a full run replaces a partial record', () => {
    rememberFailures(path, 'tree', 'test', ['a']);
    rememberFailures(path, 'tree', 'test', ['b'], ['b']);
    expect(recallFailures(path, 'tree', 'test', ['c'])).toEqual({ failing: ['a', 'b'], unchecked: [] });
    rememberFailures(path, 'tree2', 'test', ['x'], ['x', 'y']);
    rememberFailures(path, 'tree2', 'test', ['y']);
    expect(recallFailures(path, 'tree2', 'test', ['x', 'y', 'z'])).toEqual({ failing: ['y'], unchecked: [] });
  });

  it('reads the former format (lists only) and resets a corrupt file', () => {
    writeFileSync(path, JSON.stringify([{ digest: 'tree', gates: { test: ['a'] } }]));
    expect(recallFailures(path, 'tree', 'test', ['a', 'b'])).toEqual({ failing: ['a'], unchecked: [] });
    writeFileSync(path, JSON.stringify([{ digest: 'tree', gates: { test: { failing: 'a' } } }]));
    expect(recallFailures(path, 'tree', 'test', ['a'])).toEqual({ failing: [], unchecked: ['a'] });
  });
});
