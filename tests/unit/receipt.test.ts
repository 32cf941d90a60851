import { describe, expect, it } from 'vitest';
import { judgeReceipt } from '../../src/receipt/judge-receipt.js';
import { isIntact, sealReceipt, type ReceiptBody } from '../../src/receipt/receipt.js';
import { renderReceiptMarkdown } from '../../src/receipt/render-receipt.js';
import { gateTable } from '../../src/report/gate-table.js';

const HEAD = 'a'.repeat(40);
const body: ReceiptBody = {
  version: 1,
  verdict: 'fail',
  time: '2026-06-02T09:00:00.000Z',
  by: 'check',
  tree: { head: HEAD, digest: '0123456789abcdef', changedFiles: 2 },
  config: 'fedcba9876543210',
  gates: [
    { name: 'test', status: 'failed', outcome: 'failed (exit 1)', durationMs: 1500 },
    { name: 'lint', status: 'passed', outcome: 'passed', durationMs: 80 },
  ],
};
const now = { head: HEAD, digest: '0123456789abcdef', config: 'fedcba9876543210' };

describe('a receipt and its digest', () => {
  it('is intact as sealed, whatever order its keys come in', () => {
    const receipt = sealReceipt(body);
    expect(receipt.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(isIntact(receipt)).toBe(true);
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(receipt).reverse())));
    expect(isIntact(reordered)).toBe(true);
  });

  it('is not once any field changes, the tree and config included, or its verdict disagrees with its gates', () => {
    const receipt = sealReceipt(body);
    expect(isIntact({ ...receipt, verdict: 'pass' })).toBe(false);
    expect(isIntact({ ...receipt, gates: receipt.gates.slice(1) })).toBe(false);
    expect(isIntact({ ...receipt, tree: { ...receipt.tree, digest: 'ffffffffffffffff' } })).toBe(false);
    expect(isIntact({ ...receipt, config: 'ffffffffffffffff' })).toBe(false);
    const passing = sealReceipt({ ...body, verdict: 'pass' });
    expect(isIntact(passing)).toBe(false);
  });
});

describe('judgeReceipt', () => {
  const found = { kind: 'found', receipt: sealReceipt(body) } as const;

  it('says FAIL on the same tree and config, naming the red gates', () => {
    expect(judgeReceipt(found, now, 'r.json')).toMatchObject({ state: 'fail', reason: '1 of 2 gates did not pass on exactly this tree and config (test)' });
  });

  it('says STALE when the tree, the config or both moved, with the commits when they differ', () => {
    expect(judgeReceipt(found, { ...now, config: 'x' }, 'r.json').reason).toBe('the config changed since the last full run, which was FAIL');
    expect(judgeReceipt(found, { ...now, digest: 'x' }, 'r.json').reason).toBe('the work tree changed since the last full run, which was FAIL');
    expect(judgeReceipt(found, { head: 'b'.repeat(40), digest: 'x', config: 'x' }, 'r.json')).toMatchObject({
      state: 'stale',
      reason: 'the work tree and the config changed since the last full run (commit aaaaaaa then, bbbbbbb now), which was FAIL',
    });
  });

  it('says NONE without an intact record', () => {
    expect(judgeReceipt({ kind: 'missing' }, now, 'r.json')).toEqual({ state: 'none', reason: 'no full run of every gate is recorded here', receipt: undefined });
    expect(judgeReceipt({ kind: 'edited' }, now, 'r.json').reason).toBe('the record (r.json) does not match its digest: it was edited by hand or damaged');
    expect(judgeReceipt({ kind: 'unreadable' }, now, 'r.json').reason).toBe('the record (r.json) cannot be read');
  });
});

describe('the Markdown', () => {
  it('is a heading line, where the run was, and a gate | outcome | time table', () => {
    const judged = judgeReceipt({ kind: 'found', receipt: sealReceipt(body) }, now, 'r.json');
    expect(renderReceiptMarkdown(judged)).toBe(
      [
        '**gate receipt: FAIL** — 1 of 2 gates did not pass on exactly this tree and config (test).',
        '',
        'commit `aaaaaaa` (2 uncommitted changes), tree `0123456789abcdef`, by `gate check --all` at 2026-06-02T09:00:00Z',
        '',
        '| gate | outcome | time |',
        '|---|---|---|',
        '| test | ❌ failed (exit 1) | 1.5s |',
        '| lint | ✅ passed | 80ms |',
        '',
      ].join('\n'),
    );
  });

  it('keeps a table cell one cell: pipes, backslashes, newlines and HTML from names and tool output', () => {
    const [, , row] = gateTable([{ name: 'a|b', status: 'not-started', outcome: 'could not start: "x\\y"\nnot <found>', durationMs: 0 }]);
    expect(row).toBe('| a\\|b | ⚠️ could not start: "x\\\\y" not &lt;found> | 0ms |');
  });
});
