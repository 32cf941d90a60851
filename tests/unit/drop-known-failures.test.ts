import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { dropKnownFailures } from '../../src/report/drop-known-failures.js';
import { renderReport } from '../../src/report/render-report.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/outputs');
const filtered = (filter: string, file: string) => filterOutput(filter, readFileSync(join(FIXTURES, file), 'utf8'));

describe('dropKnownFailures', () => {
  it('leaves out the items of failures from before the turn, for the JS and the native filters alike', () => {
    for (const [filter, file] of [
      ['vitest', 'vitest/volume-200-failures.txt'],
      ['pytest', 'pytest/assertion-diffs.txt'],
      ['go-test', 'go-test/failures.txt'],
      ['cargo-test', 'cargo-test/failures.txt'],
    ] as const) {
      const all = filtered(filter, file);
      const [first, ...rest] = all.failures;
      expect(all.itemOf, file).toBeDefined();
      const without = dropKnownFailures(all, new Set([first?.id ?? '']));
      expect(without.failures.map((failure) => failure.id), file).toEqual(rest.map((failure) => failure.id));
      expect(without.items.length, file).toBeLessThan(all.items.length);
      expect(without.items.flat().join('\n'), file).not.toContain(all.items[all.itemOf?.[0] ?? 0]?.[0]);
    }
  });

  it('keeps an item that also shows a new failure, and everything when the filter does not map items', () => {
    const shared = { items: [['a and b']], noun: 'failures', summary: [], dropped: 0, failures: [{ id: 'a', message: '' }, { id: 'b', message: '' }], itemOf: [0, 0] };
    expect(dropKnownFailures(shared, new Set(['a'])).items).toEqual([['a and b']]);
    const { itemOf: _, ...unmapped } = shared;
    expect(dropKnownFailures(unmapped, new Set(['a', 'b']))).toBe(unmapped);
  });
});

describe('renderReport with notes', () => {
  it('puts a gate’s notes after its failures, and a full budget still shows the failure first', () => {
    const gate = { name: 'test', command: 'vitest run', outcome: 'exit 1', log: '.git/gate/logs/test.log', notes: ['Already failing before this turn (not caused by this change): old > one.'] };
    const report = renderReport({
      failed: [{ ...gate, filtered: { items: [['FAIL new > one', 'x'.repeat(300)]], noun: 'failures', summary: ['1 failed'], dropped: 0, failures: [] } }],
      gateCount: 1,
      block: 1,
      maxBlocks: 3,
      budget: 700,
    });
    expect(report.length).toBeLessThanOrEqual(700);
    expect(report).toContain('x'.repeat(300));
    expect(report.indexOf('FAIL new > one')).toBeLessThan(report.indexOf('Already failing before this turn'));
  });
});
