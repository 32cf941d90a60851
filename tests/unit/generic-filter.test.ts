import { describe, expect, it } from 'vitest';
import { genericFilter } from '../../src/filters/generic.js';

/** Everything the filter kept, in order: items, then the summary. */
const kept = (raw: string) => {
  const result = genericFilter(raw);
  return [...result.items.flat(), ...result.summary];
};

describe('genericFilter', () => {
  it('strips every kind of escape: CSI colours, OSC-8 links, charset selects, half-cut sequences', () => {
    const raw = [
      '\x1b[31m\x1b[1mFAIL\x1b[22m\x1b[39m src/a.test.ts',
      '\x1b]8;;file:///repo/src/a.ts\x07src/a.ts:3:5\x1b]8;;\x07 here',
      '\x1b(Bplain\x1b(0 text',
      'cut off at the end \x1b[3',
    ].join('\n');
    const lines = kept(raw);
    expect(lines).toEqual(['FAIL src/a.test.ts', 'src/a.ts:3:5 here', 'plain text', 'cut off at the end']);
    expect(lines.join('\n')).not.toMatch(/\x1b/);
  });

  it('drops stack frames in node_modules and node internals, keeps the user frames', () => {
    const raw = [
      'Error: boom',
      '    at sum (/repo/src/sum.ts:2:9)',
      '    at run (/repo/node_modules/vitest/dist/runner.js:10:3)',
      '    at node:internal/process/task_queues:95:5',
      '    at Module._compile (node:internal/modules/cjs/loader:1256:14)',
      ' ❯ node_modules/@vitest/runner/dist/index.js:146:14',
    ].join('\n');
    expect(kept(raw)).toEqual(['Error: boom', '    at sum (/repo/src/sum.ts:2:9)']);
    expect(genericFilter(raw).dropped).toBe(4);
  });

  it('keeps what a progress redraw left visible, and drops timings so the text is stable', () => {
    const raw = 'progress 10%\rprogress 100%\r\n ✓ src/a.test.ts (3 tests) 12ms\nDuration  1.20s (transform 5ms)\n   Start at  10:11:12\n=== 1 failed in 0.12s ===';
    expect(kept(raw)).toEqual(['progress 100%', ' ✓ src/a.test.ts (3 tests)', '=== 1 failed ===']);
  });

  it('collapses repeated lines and blank runs', () => {
    const raw = 'warn: x\nwarn: x\nwarn: x\n\n\n\nend\n\n';
    expect(kept(raw)).toEqual(['warn: x', '  (the line above repeated 2 more times)', '', 'end']);
  });

  it('cuts an enormous line', () => {
    const [line] = kept('x'.repeat(10_000));
    expect(line?.length).toBeLessThan(500);
    expect(line).toMatch(/9600 more characters/);
  });
});

describe('genericFilter units', () => {
  it('makes each line an item and keeps the last line as the summary', () => {
    expect(genericFilter('a\nb\ntotals: 1 failed')).toMatchObject({ items: [['a'], ['b']], summary: ['totals: 1 failed'], noun: 'lines' });
  });
});
