import { describe, expect, it } from 'vitest';
import { failuresKey, renderReminder } from '../../src/report/repeat-report.js';

const failure = (id: string, file?: string, line?: number) => ({ id, message: 'x', ...(file ? { file } : {}), ...(line ? { line } : {}) });

describe('what makes a block a repeat', () => {
  it('the same gates with the same failure ids, in any order', () => {
    const a = failuresKey([{ name: 'test', failures: [failure('a'), failure('b')] }, { name: 'lint', failures: [failure('c')] }]);
    const b = failuresKey([{ name: 'lint', failures: [failure('c')] }, { name: 'test', failures: [failure('b'), failure('a')] }]);
    expect(a).toBeDefined();
    expect(a).toBe(b);
    expect(failuresKey([{ name: 'test', failures: [failure('a')] }])).not.toBe(a);
  });

  it('no key when a failed gate shows no failure by id (its output, with its timings, is all there is)', () => {
    expect(failuresKey([{ name: 'test', failures: [failure('a')] }, { name: 'build', failures: [] }])).toBeUndefined();
    expect(failuresKey([])).toBeUndefined();
  });
});

describe('the reminder', () => {
  it('names each failure with its place once, paths relative to the repository, and at most 20', () => {
    const failures = Array.from({ length: 22 }, (_, i) => failure(`/repo/src/a.test.ts > case ${i}`, '/repo/src/a.test.ts', i + 1));
    const text = renderReminder({ gates: [{ name: 'test', failures }, { name: 'types', failures: [failure('src/b.ts TS2322: nope', 'src/b.ts', 3), failure('odd')] }], gateCount: 3, block: 3, maxBlocks: 5, reportedAt: 1, reportPath: '.git/gate/reports/s.txt', root: '/repo' });
    const lines = text.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'gate: 2 of 3 checks failed (test, types); stop refused, block 3 of 5.',
      'The same failures as at block 1, whose report you were sent then (it is also in .git/gate/reports/s.txt):',
      '- test: src/a.test.ts > case 0, line 1',
    ]);
    expect(lines).toContain('- test: src/a.test.ts > case 19, line 20');
    expect(lines).not.toContain('- test: src/a.test.ts > case 20, line 21');
    expect(lines).toContain('- and 4 more');
  });
});
