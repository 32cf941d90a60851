import { describe, expect, it } from 'vitest';
import { changedPaths, headSnapshot, makeSnapshot } from '../../src/snapshot/snapshot.js';

describe('changedPaths', () => {
  const head = 'c'.repeat(40);

  it('finds nothing between equal snapshots, even of a dirty tree', () => {
    const dirty = makeSnapshot(head, { 'a.ts': 'h1', 'b.ts': 'missing' });
    expect(changedPaths(dirty, makeSnapshot(head, { 'a.ts': 'h1', 'b.ts': 'missing' }), [])).toEqual({ paths: [], all: false });
  });

  it('finds edited, newly dirty and reverted paths', () => {
    const base = makeSnapshot(head, { 'edited.ts': 'h1', 'reverted.ts': 'h2' });
    const now = makeSnapshot(head, { 'edited.ts': 'h3', 'new.ts': 'h4' });
    expect(changedPaths(base, now, []).paths).toEqual(['edited.ts', 'new.ts', 'reverted.ts']);
  });

  it('adds what was committed when the head moved', () => {
    const now = makeSnapshot('d'.repeat(40), {});
    expect(changedPaths(headSnapshot(head), now, ['src/x.ts'])).toEqual({ paths: ['src/x.ts'], all: false });
    expect(changedPaths(headSnapshot(head), now, undefined).all).toBe(true);
  });

  it('gives equal digests for equal states regardless of key order', () => {
    expect(makeSnapshot(head, { b: '1', a: '2' }).digest).toBe(makeSnapshot(head, { a: '2', b: '1' }).digest);
    expect(makeSnapshot(head, { a: '1' }).digest).not.toBe(makeSnapshot(head, { a: '2' }).digest);
    expect(makeSnapshot(null, {}).digest).not.toBe(makeSnapshot(head, {}).digest);
  });
});
