import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Filtered } from '../../src/filters/filter.js';
import { ruffFilter } from '../../src/filters/ruff.js';

// Reconstructed from ruff's rule engine and its documented layout, not captured: see the README there.
const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/ruff/${name}`, import.meta.url), 'utf8');
const kept = (filtered: Filtered) => [...filtered.items.flat(), ...filtered.summary].join('\n');

describe('ruffFilter', () => {
  it('makes each diagnostic one item: rule id and message, location, the flagged line with its markers, help', () => {
    const filtered = ruffFilter(fixture('full-reconstructed.txt'));
    expect(filtered.noun).toBe('problems');
    expect(filtered.items).toHaveLength(15);
    expect(filtered.items[4]).toEqual(['F401 [*] `os` imported but unused', ' --> app/views.py:1:8', '1 | import os', '  |        ^^', 'help: Remove unused import: `os`']);
    expect(filtered.items[8]).toEqual(['F821 Undefined name `undefined_name`', '  --> app/views.py:9:16', ' 9 |         return undefined_name', '   |                ^^^^^^^^^^^^^^']);
  });

  it('drops the context lines around the flagged line and the empty gutters', () => {
    const text = kept(ruffFilter(fixture('full-reconstructed.txt')));
    expect(text).not.toContain('from typing import List');
    expect(text).not.toMatch(/^\s*\|$/m);
  });

  it('keeps the totals and the fix hint', () => {
    expect(ruffFilter(fixture('full-reconstructed.txt')).summary).toEqual([
      'Found 15 errors.',
      '[*] 5 fixable with the `--fix` option (5 hidden fixes can be enabled with the `--unsafe-fixes` option).',
    ]);
  });

  it('describes each diagnostic by file, rule and message, the same in the full and concise formats', () => {
    const full = ruffFilter(fixture('full-reconstructed.txt')).failures;
    expect(full[0]).toEqual({ id: 'app/util.py E401: Multiple imports on one line', rule: 'E401', file: 'app/util.py', line: 1, message: 'Multiple imports on one line' });
    expect(full.map((failure) => failure.id.split(' ')[1]?.replace(/:$/, ''))).toEqual(['E401', 'F401', 'E721', 'F631', 'F401', 'F401', 'F841', 'E711', 'F821', 'F841', 'E722', 'E741', 'E731', 'F841', 'F541']);
    const concise = ruffFilter(fixture('concise-reconstructed.txt'));
    expect(concise.failures).toEqual(full);
    expect(concise.items[4]).toEqual(['app/views.py:1:8: F401 [*] `os` imported but unused']);
  });

  it('reads the full format of ruff before 0.12, with the location first and `= help:`', () => {
    // The layout of ruff's CLI snapshot for `--output-format full` before 0.12.
    const raw = [
      'input.py:1:8: F401 [*] `os` imported but unused',
      '  |',
      '1 | import os  # F401',
      '  |        ^^ F401',
      '2 | x = y      # F821',
      '  |',
      '  = help: Remove unused import: `os`',
      '',
      'input.py:3:1: invalid-syntax: Cannot use `match` statement on Python 3.9 (syntax was added in Python 3.10)',
      '  |',
      '3 | match 42:  # invalid-syntax',
      '  | ^^^^^',
      '  |',
      '',
      'Found 2 errors.',
      '[*] 1 fixable with the `--fix` option.',
    ].join('\n');
    const filtered = ruffFilter(raw);
    expect(filtered.items).toEqual([
      ['input.py:1:8: F401 [*] `os` imported but unused', '1 | import os  # F401', '  |        ^^ F401', '  = help: Remove unused import: `os`'],
      ['input.py:3:1: invalid-syntax: Cannot use `match` statement on Python 3.9 (syntax was added in Python 3.10)', '3 | match 42:  # invalid-syntax', '  | ^^^^^'],
    ]);
    expect(filtered.failures.map((failure) => failure.id)).toEqual(['input.py F401: `os` imported but unused', 'input.py invalid-syntax: Cannot use `match` statement on Python 3.9 (syntax was added in Python 3.10)']);
    expect(filtered.summary).toEqual(['Found 2 errors.', '[*] 1 fixable with the `--fix` option.']);
  });
});
