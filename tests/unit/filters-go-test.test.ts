import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Filtered } from '../../src/filters/filter.js';
import { goTestFilter } from '../../src/filters/go-test.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/go-test/${name}`, import.meta.url), 'utf8');
const kept = (filtered: Filtered) => [...filtered.items.flat(), ...filtered.summary].join('\n');
const heads = (filtered: Filtered) => filtered.items.map((item) => item[0]);

const HEADS = [
  '--- FAIL: TestAddLarge (example.com/shop/calc)',
  '--- FAIL: TestDiscount',
  '--- FAIL: TestTotals',
  '--- FAIL: TestFields (example.com/shop/parse)',
  '--- FAIL: TestFirstEmpty',
];

describe('goTestFilter', () => {
  it('makes each failing top-level test one item with its failing subtests and log lines, the package named once', () => {
    const filtered = goTestFilter(fixture('failures.txt'));
    expect(filtered.noun).toBe('failures');
    expect(heads(filtered)).toEqual(HEADS);
    expect(filtered.items[1]).toEqual(['--- FAIL: TestDiscount', '    --- FAIL: TestDiscount/rounding', '        calc_test.go:34: Discount(10, 33) = 6.7, want 6.6']);
    expect(filtered.items[2]).toEqual([
      '--- FAIL: TestTotals',
      '    calc_test.go:44: totals mismatch',
      '         got: map[apples:3 pears:2]',
      '        want: map[apples:3 pears:5]',
      '    calc_test.go:46: checked totals',
    ]);
  });

  it('keeps a panic and the user frames of its stack, not the runtime, testing or what changes per run', () => {
    const panic = goTestFilter(fixture('failures.txt')).items[4];
    expect(panic).toEqual([
      '--- FAIL: TestFirstEmpty',
      'panic: runtime error: index out of range [0] with length 0 [recovered]',
      '\tpanic: runtime error: index out of range [0] with length 0',
      '',
      'example.com/shop/parse.First(...)',
      '\t/tmp/cap/go/fail/parse/parse.go:15',
      'example.com/shop/parse.TestFirstEmpty(...)',
      '\t/tmp/cap/go/fail/parse/parse_test.go:17',
    ]);
  });

  it('drops passing packages, timings, the bare FAIL line and the runtime', () => {
    const filtered = goTestFilter(fixture('failures.txt'));
    const text = kept(filtered);
    expect(text).not.toMatch(/worker|\(0\.00s\)|\d\.\d{3}s|^FAIL$|testing\.tRunner|\/usr\/lib\/go|runtime\/panic\.go|goroutine \d|\+0x|0xc0000/m);
    expect(filtered.summary).toEqual(['FAIL\texample.com/shop/calc', 'FAIL\texample.com/shop/parse']);
  });

  it('reads -v output the same way: no RUN lines, no passing tests or subtests', () => {
    const verbose = goTestFilter(fixture('failures-verbose.txt'));
    expect(heads(verbose)).toEqual(HEADS);
    expect(kept(verbose)).not.toMatch(/=== RUN|--- PASS|TestAddSmall|TestDiscount\/none|TestSum|^PASS$/m);
    expect(verbose.failures).toEqual(goTestFilter(fixture('failures.txt')).failures);
    expect(verbose.summary).toEqual(['FAIL\texample.com/shop/calc', 'FAIL\texample.com/shop/parse']);
  });

  it('describes each failing test, subtests by their full name', () => {
    expect(goTestFilter(fixture('failures.txt')).failures).toEqual([
      { id: 'example.com/shop/calc.TestAddLarge', file: 'calc_test.go', line: 16, message: 'Add(20, 3) = 22, want 23', expected: '23', received: '22' },
      { id: 'example.com/shop/calc.TestDiscount/rounding', file: 'calc_test.go', line: 34, message: 'Discount(10, 33) = 6.7, want 6.6', expected: '6.6', received: '6.7' },
      { id: 'example.com/shop/calc.TestTotals', file: 'calc_test.go', line: 44, message: 'totals mismatch' },
      { id: 'example.com/shop/parse.TestFields', file: 'parse_test.go', line: 12, message: 'Fields() = ["a" " b" "c"], want ["a" "b" "c"]', expected: '["a" "b" "c"]', received: '["a" " b" "c"]' },
      { id: 'example.com/shop/parse.TestFirstEmpty', file: '/tmp/cap/go/fail/parse/parse.go', line: 15, message: 'panic: runtime error: index out of range [0] with length 0 [recovered]' },
    ]);
  });

  it('keeps each build error as an item and the packages that failed to build', () => {
    const filtered = goTestFilter(fixture('build-error.txt'));
    expect(filtered.items).toEqual([
      ['store/store.go:4:2: imported and not used: "fmt"'],
      ['store/store.go:5:2: imported and not used: "os"'],
      ['store/store.go:11:9: cannot use s.items[key] (map index expression of type int) as type string in return statement'],
      ['store/store.go:15:17: undefined: valu'],
      ['api/api_test.go:10:2: fmt.Printf format %d has arg got of wrong type string'],
    ]);
    expect(filtered.failures[3]).toEqual({ id: 'store/store.go go: undefined: valu', rule: 'go', file: 'store/store.go', line: 15, message: 'undefined: valu' });
    expect(filtered.summary).toEqual(['FAIL\texample.com/build/api [build failed]', 'FAIL\texample.com/build/store [build failed]']);
  });
});
