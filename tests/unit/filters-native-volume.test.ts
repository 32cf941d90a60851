import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Filtered } from '../../src/filters/filter.js';
import { NATIVE_FILTERS } from '../../src/filters/native-filters.js';
import { renderReport, type FailedGate } from '../../src/report/render-report.js';

const filter = (id: string, file: string): Filtered => {
  const run = NATIVE_FILTERS[id];
  if (run === undefined) throw new Error(`no filter ${id}`);
  return run(readFileSync(new URL(`../fixtures/outputs/${id}/${file}`, import.meta.url), 'utf8'));
};
const gate = (name: string, filtered: Filtered): FailedGate => ({ name, command: name, outcome: 'exit 1', filtered, log: `.git/gate/logs/${name}.log` });
const report = (...gates: FailedGate[]) => renderReport({ failed: gates, gateCount: gates.length, block: 1, maxBlocks: 3, budget: 6000 });

/** How many items, from the first on and in order, the report shows whole. */
const shownItems = (text: string, filtered: Filtered) => {
  let from = 0;
  let shown = 0;
  for (const item of filtered.items) {
    const at = text.indexOf(item.join('\n'), from);
    if (at === -1) break;
    from = at + 1;
    shown++;
  }
  return shown;
};

const VOLUME: [id: string, file: string, count: number, first: string, totals: string][] = [
  ['pytest', 'volume-200.txt', 200, 'FAILED tests/test_module_0.py::test_double_0_00', '200 failed, 4 passed'],
  ['go-test', 'volume-200.txt', 200, '--- FAIL: TestDouble00 (example.com/volume/pkg0)', 'FAIL\texample.com/volume/pkg3'],
  ['go-test', 'volume-200-verbose.txt', 200, '--- FAIL: TestDouble00 (example.com/volume/pkg0)', 'FAIL\texample.com/volume/pkg3'],
  ['cargo-test', 'volume-200.txt', 200, '---- tests::double_000 stdout ----', 'test result: FAILED. 1 passed; 200 failed; 0 ignored; 0 measured; 0 filtered out'],
  ['mypy', 'volume-500.txt', 500, 'mod_4.py:2: error: Incompatible return value type (got "int", expected "str")  [return-value]', 'Found 500 errors in 5 files (checked 5 source files)'],
  ['cargo-clippy', 'volume-500.txt', 500, 'error[clippy::needless_return]: unneeded `return` statement', 'error: could not compile `lintbulk` (lib) due to 500 previous errors'],
];

describe('native filters on hundreds of failures', () => {
  it.each(VOLUME)('%s %s: one item and one structured failure per failure', (id, file, count) => {
    const filtered = filter(id, file);
    expect(filtered.items).toHaveLength(count);
    expect(filtered.failures).toHaveLength(count);
    expect(new Set(filtered.failures.map((failure) => failure.id)).size).toBe(count);
  });

  it.each(VOLUME)('%s %s: the report shows the first failures whole and in order, a count of the rest, then the totals', (id, file, count, first, totals) => {
    const filtered = filter(id, file);
    const text = report(gate(id, filtered));
    expect(text.length).toBeLessThanOrEqual(6000);
    const shown = shownItems(text, filtered);
    expect(shown).toBeGreaterThanOrEqual(10);
    expect(text.indexOf(first)).toBeGreaterThan(0);
    const more = `… ${count - shown} more ${filtered.noun}; full log: .git/gate/logs/${id}.log`;
    expect(text).toContain(more);
    expect(text.indexOf(filtered.items[shown - 1]?.join('\n') ?? '?')).toBeLessThan(text.indexOf(more));
    expect(text.indexOf(more)).toBeLessThan(text.indexOf(totals));
    // Never only the tail: what is left out is the last failures, and the report says how many.
    expect(shown).toBeLessThan(count);
  });

  it('splits the budget between failed gates, each with its first failures, count and totals', () => {
    const text = report(gate('pytest', filter('pytest', 'volume-200.txt')), gate('cargo-clippy', filter('cargo-clippy', 'volume-500.txt')));
    expect(text.length).toBeLessThanOrEqual(6000);
    expect(text).toMatch(/FAILED tests\/test_module_0\.py::test_double_0_00[\s\S]*… \d+ more failures[\s\S]*200 failed, 4 passed/);
    expect(text).toMatch(/error\[clippy::needless_return\][\s\S]*… \d+ more problems[\s\S]*due to 500 previous errors/);
  });
});

describe('native filters on every fixture', () => {
  const FIXTURES: [string, string][] = [
    ['pytest', 'assertion-diffs-color.txt'],
    ['mypy', 'errors-color.txt'],
    ['cargo-test', 'failures-color.txt'],
    ['cargo-clippy', 'lints-color.txt'],
  ];
  it.each(FIXTURES)('%s %s: no escape sequence survives a coloured run', (id, file) => {
    const filtered = filter(id, file);
    expect([...filtered.items.flat(), ...filtered.summary].join('\n')).not.toMatch(/\x1b|\[\d+m/);
  });
});
