import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cargoClippyFilter } from '../../src/filters/cargo-clippy.js';
import type { Filtered } from '../../src/filters/filter.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/cargo-clippy/${name}`, import.meta.url), 'utf8');
const kept = (filtered: Filtered) => [...filtered.items.flat(), ...filtered.summary].join('\n');

describe('cargoClippyFilter', () => {
  it('makes each lint one item with the lint name in its header', () => {
    const filtered = cargoClippyFilter(fixture('lints.txt'));
    expect(filtered.noun).toBe('problems');
    expect(filtered.items.map((item) => item[0])).toEqual([
      'error[unused_variables]: unused variable: `unused`',
      'error[clippy::needless_return]: unneeded `return` statement',
      'error[clippy::ptr_arg]: writing `&Vec` instead of `&[_]` involves a new object where a slice will do',
      'error[clippy::needless_range_loop]: the loop variable `i` is only used to index `values`',
      'error[clippy::assign_op_pattern]: manual implementation of an assign operation',
      'error[clippy::ptr_arg]: writing `&String` instead of `&str` involves a new object where a slice will do',
      'error[clippy::len_zero]: length comparison to zero',
      'error[clippy::bool_comparison]: equality checks against true are unnecessary',
      'error[clippy::manual_ok_err]: manual implementation of `ok`',
      'error[clippy::bool_assert_comparison]: used `assert_eq!` with a literal bool',
    ]);
  });

  it('keeps the location, the source excerpt and the suggested change', () => {
    expect(cargoClippyFilter(fixture('lints.txt')).items[1]).toEqual([
      'error[clippy::needless_return]: unneeded `return` statement',
      ' --> src/lib.rs:6:5',
      '6 |     return sum;',
      '  |     ^^^^^^^^^^',
      'help: remove `return`',
      '6 -     return sum;',
      '6 +     sum',
    ]);
  });

  it('drops Checking lines and the notes on how the lint was enabled or could be allowed', () => {
    const text = kept(cargoClippyFilter(fixture('lints.txt')));
    expect(text).not.toMatch(/Checking|implied by `-D warnings`|to override|#\[allow|for further information visit|build failed, waiting/);
    expect(text).not.toMatch(/^\s*\|$/m);
  });

  it('describes each lint by file, lint and message and keeps the totals', () => {
    const filtered = cargoClippyFilter(fixture('lints.txt'));
    expect(filtered.failures.slice(0, 2)).toEqual([
      { id: 'src/lib.rs unused_variables: unused variable: `unused`', rule: 'unused_variables', file: 'src/lib.rs', line: 22, message: 'unused variable: `unused`' },
      { id: 'src/lib.rs clippy::needless_return: unneeded `return` statement', rule: 'clippy::needless_return', file: 'src/lib.rs', line: 6, message: 'unneeded `return` statement' },
    ]);
    expect(filtered.summary).toEqual(['error: could not compile `lints` (lib test) due to 10 previous errors', 'error: could not compile `lints` (lib) due to 9 previous errors']);
  });

  it('gives the same result for a coloured run', () => {
    expect(cargoClippyFilter(fixture('lints-color.txt'))).toEqual({ ...cargoClippyFilter(fixture('lints.txt')), dropped: expect.any(Number) });
  });

  it('names the lints of a run without -D warnings too', () => {
    const filtered = cargoClippyFilter(fixture('lints-without-deny.txt'));
    expect(filtered.items[1]?.[0]).toBe('warning[clippy::needless_return]: unneeded `return` statement');
    expect(filtered.failures.map((failure) => failure.id)).toEqual(cargoClippyFilter(fixture('lints.txt')).failures.map((failure) => failure.id));
    expect(filtered.summary).toEqual([
      'warning: `lints` (lib test) generated 10 warnings (9 duplicates) (run `cargo clippy --fix --lib -p lints --tests -- ` to apply 1 suggestion)',
      'warning: `lints` (lib) generated 9 warnings (run `cargo clippy --fix --lib -p lints -- ` to apply 6 suggestions)',
    ]);
  });
});
