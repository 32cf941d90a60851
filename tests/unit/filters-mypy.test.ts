import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Filtered } from '../../src/filters/filter.js';
import { mypyFilter } from '../../src/filters/mypy.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/mypy/${name}`, import.meta.url), 'utf8');
const kept = (filtered: Filtered) => [...filtered.items.flat(), ...filtered.summary].join('\n');

describe('mypyFilter', () => {
  it('makes each error one item with its error code, and keeps the totals', () => {
    const filtered = mypyFilter(fixture('errors.txt'));
    expect(filtered.noun).toBe('errors');
    expect(filtered.items).toHaveLength(9);
    expect(filtered.items[0]).toEqual(['app/models.py:11: error: Argument "age" to "User" has incompatible type "str"; expected "int"  [arg-type]']);
    expect(filtered.summary).toEqual(['Found 8 errors in 2 files (checked 3 source files)']);
  });

  it('keeps a note with the error it belongs to, and a standalone note as its own item', () => {
    const filtered = mypyFilter(fixture('errors.txt'));
    expect(filtered.items[2]).toEqual([
      'app/service.py:3: error: Cannot find implementation or library stub for module named "requests_not_installed"  [import]',
      'app/service.py:3: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports',
    ]);
    expect(filtered.items[8]).toEqual(['app/service.py:19: note: Revealed type is "def (ages: builtins.list[builtins.int]) -> builtins.int"']);
  });

  it('describes each error by file, code and message (the line apart), and not the notes', () => {
    const failures = mypyFilter(fixture('errors.txt')).failures;
    expect(failures.map((failure) => `${failure.file}:${failure.line}: ${failure.id.split(' ')[1]}`)).toEqual([
      'app/models.py:11: arg-type:',
      'app/models.py:18: return-value:',
      'app/service.py:3: import:',
      'app/service.py:9: union-attr:',
      'app/service.py:13: operator:',
      'app/service.py:16: assignment:',
      'app/service.py:17: arg-type:',
      'app/service.py:18: attr-defined:',
    ]);
    expect(failures[3]).toEqual({ id: 'app/service.py union-attr: Item "None" of "Optional[User]" has no attribute "name"', rule: 'union-attr', file: 'app/service.py', line: 9, message: 'Item "None" of "Optional[User]" has no attribute "name"' });
  });

  it('reads --pretty output: wrapped messages, source excerpts, the code on a continuation line', () => {
    const pretty = mypyFilter(fixture('errors-pretty.txt'));
    expect(pretty.failures).toEqual(mypyFilter(fixture('errors.txt')).failures);
    expect(pretty.items[4]).toEqual(['app/service.py:13: error: Unsupported operand types for + ("int" and "str")', '[operator]', '        return sum(ages) + "0"', '                           ^~~']);
  });

  it('strips the colours and charset selects of a coloured run', () => {
    const colour = mypyFilter(fixture('errors-color.txt'));
    expect(kept(colour)).not.toContain('\x1b');
    expect(colour.items).toEqual(mypyFilter(fixture('errors.txt')).items);
  });

  it('keeps a blocking syntax error', () => {
    const filtered = mypyFilter(fixture('syntax-error.txt'));
    expect(filtered.items).toEqual([['broken.py:2: error: invalid syntax  [syntax]']]);
    expect(filtered.failures).toEqual([{ id: 'broken.py syntax: invalid syntax', rule: 'syntax', file: 'broken.py', line: 2, message: 'invalid syntax' }]);
    expect(filtered.summary).toEqual(['Found 1 error in 1 file (errors prevented further checking)']);
  });

  it('keeps lines of its own it does not know, such as a configuration error', () => {
    expect(kept(mypyFilter("mypy: can't read file 'nope.py': No such file or directory\n"))).toBe("mypy: can't read file 'nope.py': No such file or directory");
  });
});
