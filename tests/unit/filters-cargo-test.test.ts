import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cargoTestFilter } from '../../src/filters/cargo-test.js';
import type { Filtered } from '../../src/filters/filter.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/cargo-test/${name}`, import.meta.url), 'utf8');
const kept = (filtered: Filtered) => [...filtered.items.flat(), ...filtered.summary].join('\n');

const IDS = [
  'inventory::tests::names_are_lowercase',
  'inventory::tests::nested::average_of_nothing',
  'inventory::tests::parse_rejects_words',
  'inventory::tests::restock_adds_quantity',
  'api::restock_keeps_tags',
  'api::restock_zero_is_identity',
  'limits::expects_boom',
  'limits::overflow_panics',
];

describe('cargoTestFilter', () => {
  it('makes each failing test one item, across all test binaries of a --no-fail-fast run', () => {
    const filtered = cargoTestFilter(fixture('failures.txt'));
    expect(filtered.noun).toBe('failures');
    expect(filtered.failures.map((failure) => failure.id)).toEqual(IDS);
    expect(filtered.items[3]).toEqual([
      '---- tests::restock_adds_quantity stdout ----',
      "thread 'tests::restock_adds_quantity' panicked at src/lib.rs:30:9:",
      'assertion `left == right` failed',
      '  left: Item { name: "apple", qty: 4, tags: ["fruit"] }',
      ' right: Item { name: "apple", qty: 5, tags: ["fruit"] }',
    ]);
    expect(filtered.items[6]).toEqual(['---- expects_boom stdout ----', 'note: test did not panic as expected at tests/limits.rs:15:4']);
  });

  it('keeps the per-binary totals and the targets that failed, without timings', () => {
    expect(cargoTestFilter(fixture('failures.txt')).summary).toEqual([
      'test result: FAILED. 1 passed; 4 failed; 0 ignored; 0 measured; 0 filtered out',
      'test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out',
      'test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out',
      'error: 3 targets failed:',
      '    `--lib`',
      '    `--test api`',
      '    `--test limits`',
    ]);
  });

  it('drops Compiling and Running lines, passing tests, the failure lists, backtrace hints and thread ids', () => {
    const text = kept(cargoTestFilter(fixture('failures.txt')));
    expect(text).not.toMatch(/Compiling|Finished|Running|Doc-tests|running \d+ tests|\.\.\. ok|\.\.\. FAILED|parses_plain_numbers|within_limits|RUST_BACKTRACE|finished in|to rerun pass|\(\d+\) panicked|test result: ok/);
  });

  it('keeps user frames of a backtrace and drops std, core, alloc and the harness closures', () => {
    const filtered = cargoTestFilter(fixture('failures-backtrace.txt'));
    expect(filtered.items[1]).toEqual([
      '---- tests::nested::average_of_nothing stdout ----',
      "thread 'tests::nested::average_of_nothing' panicked at src/lib.rs:17:5:",
      'attempt to divide by zero',
      'stack backtrace:',
      '   3: inventory::average',
      '             at ./src/lib.rs:17:5',
      '   4: inventory::tests::nested::average_of_nothing',
      '             at ./src/lib.rs:52:24',
    ]);
    expect(kept(filtered)).not.toMatch(/__rustc|core::|alloc::|\/rustc\/|FnOnce|\{\{closure\}\}|Some details are omitted/);
  });

  it('gives the same items for another run, coloured, with other thread ids and another finishing order', () => {
    const plain = fixture('failures.txt');
    const colour = fixture('failures-color.txt');
    expect(colour).toContain('\x1b[');
    expect(/panicked/.test(plain) && plain.match(/\((\d+)\) panicked/)?.[1]).not.toBe(colour.match(/\((\d+)\) panicked/)?.[1]);
    expect(cargoTestFilter(colour)).toEqual({ ...cargoTestFilter(plain), dropped: expect.any(Number) });
  });

  it('keeps a build error with its code, location and labels, and drops warnings and cargo chatter', () => {
    const filtered = cargoTestFilter(fixture('build-error-e0308.txt'));
    expect(filtered.items).toEqual([
      [
        'error[E0308]: mismatched types',
        '  --> src/lib.rs:17:9',
        '15 |     pub fn total(&self) -> i64 {',
        '   |                            --- expected `i64` because of return type',
        '16 |         let sum: i64 = self.entries.iter().sum();',
        '17 |         format!("{}", sum)',
        '   |         ^^^^^^^^^^^^^^^^^^ expected `i64`, found `String`',
      ],
    ]);
    expect(filtered.failures).toEqual([{ id: 'src/lib.rs E0308: mismatched types', rule: 'E0308', file: 'src/lib.rs', line: 17, message: 'mismatched types' }]);
    expect(filtered.summary).toEqual([
      'error: could not compile `ledger` (lib test) due to 1 previous error; 1 warning emitted',
      'error: could not compile `ledger` (lib) due to 1 previous error; 1 warning emitted',
    ]);
  });

  it('describes a panic by its location and message', () => {
    expect(cargoTestFilter(fixture('failures.txt')).failures[2]).toEqual({
      id: 'inventory::tests::parse_rejects_words',
      file: 'src/lib.rs',
      line: 13,
      message: 'quantity must be a number: ParseIntError { kind: InvalidDigit }',
    });
  });
});
