import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Filtered } from '../../src/filters/filter.js';
import { filterOutput } from '../../src/filters/filter-output.js';
import { pytestFilter } from '../../src/filters/pytest.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/pytest/${name}`, import.meta.url), 'utf8');
const kept = (filtered: Filtered) => [...filtered.items.flat(), ...filtered.summary].join('\n');
const heads = (filtered: Filtered) => filtered.items.map((item) => item[0]);

const CALC_FAILURES = [
  'FAILED tests/test_calc.py::test_adds_large',
  'FAILED tests/test_calc.py::test_config_dict',
  'FAILED tests/test_calc.py::test_list_order',
  'FAILED tests/test_calc.py::test_message',
  'FAILED tests/test_calc.py::TestParser::test_strips',
  'FAILED tests/test_calc.py::test_square[3-10]',
];

describe('pytestFilter', () => {
  it('makes each failing test one item named by its full node id, with the > line, E lines and location', () => {
    const filtered = pytestFilter(fixture('assertion-diffs.txt'));
    expect(heads(filtered)).toEqual(CALC_FAILURES);
    expect(filtered.items[0]).toEqual([
      'FAILED tests/test_calc.py::test_adds_large',
      '>       assert add(20, 3) == 23',
      'E       assert 22 == 23',
      'E        +  where 22 = add(20, 3)',
      'tests/test_calc.py:13: AssertionError',
    ]);
    expect(filtered.noun).toBe('failures');
    expect(filtered.summary).toEqual(['6 failed, 4 passed, 1 skipped']);
  });

  it('keeps the assertion message, expected and received values and the string diff', () => {
    const text = kept(pytestFilter(fixture('assertion-diffs.txt')));
    expect(text).toContain("E         {'budget': 6000} != {'budget': 8000}");
    expect(text).toContain("E         {'tools': ['pytest', 'mypy']} != {'tools': ['pytest', 'ruff']}");
    expect(text).toContain('E       AssertionError: greeting must have a comma');
    expect(text).toContain('E         - hello, world');
    expect(text).toContain('E         + hello world');
  });

  it('drops progress, the short summary, source context, frame locals and the timing', () => {
    const filtered = pytestFilter(fixture('assertion-diffs.txt'));
    const text = kept(filtered);
    expect(text).not.toMatch(/\.FFFF\.F\.\.Fs|\[100%\]/);
    expect(text).not.toContain('short test summary info');
    expect(text).not.toContain('def test_adds_large():');
    expect(text).not.toMatch(/^self = |^n = 3/m);
    expect(text).not.toMatch(/\d\.\d+s/);
    expect(filtered.dropped).toBeGreaterThanOrEqual(15);
  });

  it('keeps the full multi-line dict and list diffs of -vv, and drops the header and PASSED lines', () => {
    const filtered = pytestFilter(fixture('assertion-diffs-verbose.txt'));
    const text = kept(filtered);
    expect(heads(filtered)).toEqual(CALC_FAILURES);
    for (const line of ["E         -     'budget': 8000,", "E         +     'budget': 6000,", "E         -         'ruff',", "E         +         'mypy',", 'E         +     3,', 'E         -     3,']) {
      expect(text).toContain(line);
    }
    expect(text).not.toMatch(/PASSED|SKIPPED|platform linux|rootdir:|plugins:|collected 11 items|test session starts/);
  });

  it('reads coloured output the same way', () => {
    const filtered = pytestFilter(fixture('assertion-diffs-color.txt'));
    expect(kept(filtered)).not.toContain('\x1b');
    expect(heads(filtered)).toEqual(CALC_FAILURES);
    expect(filtered.failures).toEqual(pytestFilter(fixture('assertion-diffs.txt')).failures.map((failure) => ({ ...failure, message: expect.any(String) })));
  });

  it('drops traceback frames in site-packages and the standard library, keeps user frames and the exception', () => {
    const filtered = pytestFilter(fixture('library-traceback.txt'));
    const text = kept(filtered);
    expect(heads(filtered)).toEqual([
      'ERROR at setup of tests/test_lib.py::test_uses_db',
      'FAILED tests/test_lib.py::test_schema',
      'FAILED tests/test_lib.py::test_json_parse',
      'FAILED tests/test_lib.py::test_zero',
    ]);
    expect(text).toContain("E           jsonschema.exceptions.ValidationError: 'old' is not of type 'integer'");
    expect(text).toContain('tests/test_lib.py:11:');
    expect(text).toContain('app.py:5: in load_user');
    expect(text).toContain('    data = json.loads(text)');
    expect(text).toContain('E           json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 16 (char 15)');
    expect(text).toContain('E       RuntimeError: database is not reachable at localhost:5432');
    expect(text).not.toMatch(/site-packages|lib\/python3\.11|Validate an instance under the given schema|return _default_decoder|\^\^\^|0x[0-9a-f]{6}/);
    expect(filtered.summary).toEqual(['3 failed, 1 passed, 1 error']);
  });

  it('keeps the start of captured output', () => {
    const zero = pytestFilter(fixture('library-traceback.txt')).items[3];
    expect(zero).toEqual([
      'FAILED tests/test_lib.py::test_zero',
      '>       assert sum(values) / len(values) == 0',
      'E       ZeroDivisionError: division by zero',
      'tests/test_lib.py:21: ZeroDivisionError',
      '--- Captured stdout call ---',
      'computing mean of []',
    ]);
  });

  it('keeps collection errors with their cause and drops the import machinery', () => {
    const filtered = pytestFilter(fixture('collection-errors.txt'));
    const text = kept(filtered);
    expect(heads(filtered)).toEqual(['ERROR collecting tests/test_import.py', 'ERROR collecting tests/test_syntax.py']);
    expect(text).toContain('tests/test_import.py:1: in <module>');
    expect(text).toContain("E   ModuleNotFoundError: No module named 'app'");
    expect(text).toContain('E       def test_broken(:');
    expect(text).toContain('E   SyntaxError: invalid syntax');
    expect(text).not.toMatch(/_pytest|<frozen|importlib|\?\?\?/);
    expect(filtered.summary).toEqual(['Interrupted: 2 errors during collection', '2 errors']);
  });

  it('describes each failure by node id, file, line and message', () => {
    expect(pytestFilter(fixture('assertion-diffs.txt')).failures.slice(0, 2)).toEqual([
      { id: 'tests/test_calc.py::test_adds_large', file: 'tests/test_calc.py', line: 13, message: 'assert 22 == 23', expected: '23', received: '22' },
      {
        id: 'tests/test_calc.py::test_config_dict',
        file: 'tests/test_calc.py',
        line: 18,
        // Cut short, with two differing items: no whole value to compare.
        message: "AssertionError: assert {'budget': 60...est', 'mypy']} == {'budget': 80...est', 'ruff']}",
      },
    ]);
    expect(pytestFilter(fixture('library-traceback.txt')).failures).toEqual([
      { id: 'tests/test_lib.py::test_uses_db', file: 'tests/test_lib.py', line: 26, message: 'RuntimeError: database is not reachable at localhost:5432' },
      { id: 'tests/test_lib.py::test_schema', file: 'tests/test_lib.py', line: 11, message: "jsonschema.exceptions.ValidationError: 'old' is not of type 'integer'" },
      { id: 'tests/test_lib.py::test_json_parse', file: 'tests/test_lib.py', line: 15, message: 'json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 16 (char 15)' },
      { id: 'tests/test_lib.py::test_zero', file: 'tests/test_lib.py', line: 21, message: 'ZeroDivisionError: division by zero' },
    ]);
    expect(pytestFilter(fixture('collection-errors.txt')).failures.map((failure) => failure.id)).toEqual(['tests/test_import.py', 'tests/test_syntax.py']);
  });

  it('keeps the short summary lines when there are no tracebacks (--tb=no)', () => {
    const filtered = pytestFilter(fixture('no-tracebacks.txt'));
    expect(filtered.items[0]).toEqual(['FAILED tests/test_calc.py::test_adds_large - assert 22 == 23']);
    expect(filtered.failures.map((failure) => failure.id)).toEqual(CALC_FAILURES.map((head) => head.replace('FAILED ', '')));
    expect(filtered.summary).toEqual(['6 failed, 4 passed, 1 skipped']);
  });

  it('leads an INTERNALERROR (a hook that raised) with its exception and the user\'s frames, without pytest\'s and pluggy\'s', () => {
    const filtered = filterOutput('pytest', fixture('internal-error-hook.txt'));
    expect(filtered.items).toEqual([
      [
        "INTERNALERROR KeyError: 'test_a.py::test_one'",
        '  File "/tmp/cap38/pytest-ie/conftest.py", line 3, in pytest_collection_modifyitems',
        '    items.sort(key=lambda item: order[item.nodeid])',
        '  File "/tmp/cap38/pytest-ie/conftest.py", line 3, in <lambda>',
        '    items.sort(key=lambda item: order[item.nodeid])',
      ],
    ]);
    expect(filtered.summary).toEqual(['no tests ran']);
  });

  it('an INTERNALERROR raised from another exception names both, the last first', () => {
    const filtered = filterOutput('pytest', fixture('internal-error-chained.txt'));
    expect(filtered.items).toEqual([
      [
        'INTERNALERROR RuntimeError: test-order.json is missing: run scripts/order.py',
        '  File "/tmp/cap38/pytest-ie-chain/conftest.py", line 13, in pytest_collection_modifyitems',
        '    raise RuntimeError("test-order.json is missing: run scripts/order.py") from error',
        '',
        'caused by:',
        "FileNotFoundError: [Errno 2] No such file or directory: 'test-order.json'",
        '  File "/tmp/cap38/pytest-ie-chain/conftest.py", line 11, in pytest_collection_modifyitems',
        '    order = load_order("test-order.json")',
        '  File "/tmp/cap38/pytest-ie-chain/conftest.py", line 5, in load_order',
        '    with open(path) as handle:',
      ],
    ]);
  });

  it('falls back to the generic filter for output it does not recognise', () => {
    const raw = 'Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f12 (most recent call first):\n  File "/repo/app.py", line 3 in crash\n';
    expect(kept(pytestFilter(raw))).toContain('Fatal Python error: Segmentation fault');
  });
});
