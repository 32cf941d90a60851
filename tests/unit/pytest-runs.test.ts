import { describe, expect, it } from 'vitest';
import { addRuns } from '../../src/fast/by-coverage/coverage-record.js';
import { readPluginRecord } from '../../src/fast/by-coverage/pytest-runs.js';

const UTIL = 'class Tag:\n    def label(self, x):\n        return x\n\n\ndef double(x):\n    return x * 2\n';
const units = { skeleton: 's1', units: [{ name: 'Tag.label', body: 'b1' }, { name: 'double', body: 'b2' }] };

const written = {
  shared: { '/repo/src/util.py': ['double'] },
  tests: { '/repo/tests/test_a.py': { '/repo/src/util.py': ['Tag.label'], '/repo/tests/test_a.py': ['test_a'] }, '/repo/tests/test_b.py': {} },
  others: ['/repo/tests/test_cli.py'],
  files: { '/repo/src/util.py': { hash: 'h', ...units } },
};

describe('readPluginRecord: the file python/stopgate_record.py writes', () => {
  it('joins what ran for every test (imports, wide fixtures) to each test file, and takes a test that started a process for one without a record', () => {
    const read = readPluginRecord(JSON.stringify(written));
    expect(read?.runs).toEqual([
      { kind: 'other', tests: ['/repo/tests/test_cli.py'] },
      { kind: 'test', test: '/repo/tests/test_a.py', modules: new Map([['/repo/tests/test_a.py', new Set(['test_a'])], ['/repo/src/util.py', new Set(['double', 'Tag.label'])]]) },
      { kind: 'test', test: '/repo/tests/test_b.py', modules: new Map([['/repo/tests/test_b.py', new Set()], ['/repo/src/util.py', new Set(['double'])]]) },
    ]);
  });

  it('reads each test one by one: its own functions, none for one that failed, and what runs for all of the file\'s tests', () => {
    const items = {
      '/repo/tests/test_a.py': {
        'tests/test_a.py::test_one': { '/repo/src/util.py': ['Tag.label'], '/repo/tests/test_a.py': ['test_one'] },
        'tests/test_a.py::test_failed': null,
      },
    };
    const withItems = { ...written, tests: { ...written.tests, '/repo/tests/test_a.py': { '/repo/src/util.py': ['Tag.label', 'double'], '/repo/tests/test_a.py': ['test_one', 'helper'] } }, items };
    const run = readPluginRecord(JSON.stringify(withItems))?.runs.find((found) => found.kind === 'test' && found.test === '/repo/tests/test_a.py');
    expect(run).toMatchObject({
      byTest: {
        // double: the shared part's; helper: the file's own, run by no one test (a fixture of the file's)
        common: new Map([['/repo/src/util.py', new Set(['double'])], ['/repo/tests/test_a.py', new Set(['helper'])]]),
        items: new Map([
          ['tests/test_a.py::test_one', new Map([['/repo/src/util.py', new Set(['Tag.label'])], ['/repo/tests/test_a.py', new Set(['test_one'])]])],
          ['tests/test_a.py::test_failed', null],
        ]),
      },
    });
    const record = addRuns(undefined, run ? [run] : [], (path) => (path.endsWith('util.py') ? UTIL : 'def test_one():\n    pass\n\n\ndef helper():\n    pass\n\n\ndef test_failed():\n    pass\n'), (path) => (path.endsWith('util.py') ? units : { skeleton: 's2', units: [{ name: 'test_one', body: 'b3' }, { name: 'helper', body: 'b4' }, { name: 'test_failed', body: 'b5' }] }), '2026-12-04T00:00:00Z', 'c');
    expect(record.tests['/repo/tests/test_a.py']?.byTest).toEqual({
      common: { '/repo/src/util.py': ['double'], '/repo/tests/test_a.py': ['helper'] },
      items: { 'tests/test_a.py::test_one': { '/repo/src/util.py': ['Tag.label'], '/repo/tests/test_a.py': ['test_one'] }, 'tests/test_a.py::test_failed': null },
    });
  });

  it('is undefined for anything else: a torn write, another shape', () => {
    expect(readPluginRecord('{"shared": {')).toBeUndefined();
    expect(readPluginRecord(JSON.stringify({ ...written, shared: { '/repo/src/util.py': [1] } }))).toBeUndefined();
    expect(readPluginRecord(JSON.stringify({ ...written, others: undefined }))).toBeUndefined();
  });
});

describe('addRuns with qualified names', () => {
  it('keeps a method by its qualified name, each of whose parts the source holds', () => {
    const runs = readPluginRecord(JSON.stringify(written))?.runs ?? [];
    const texts = new Map([
      ['/repo/src/util.py', UTIL],
      ['/repo/tests/test_a.py', 'def test_a():\n    pass\n'],
      ['/repo/tests/test_b.py', ''],
    ]);
    const record = addRuns(undefined, runs, (path) => texts.get(path), (path) => (path.endsWith('util.py') ? units : undefined), 'now', 'configs');
    expect(record.tests['/repo/tests/test_a.py']?.loaded['/repo/src/util.py']?.called).toEqual(['Tag.label', 'double']);
    expect(record.tests['/repo/tests/test_b.py']?.loaded['/repo/src/util.py']?.called).toEqual(['double']);
    expect(record.tests['/repo/tests/test_cli.py']).toBeUndefined();
  });
});

describe('readPluginRecord: other test files', () => {
  it('counts another test file collected in the shared part only for a test that can import it', () => {
    const collected = { ...written, shared: { ...written.shared, '/repo/tests/test_b.py': [], '/repo/tests/test_cli.py': [] } };
    const read = readPluginRecord(JSON.stringify(collected), (test, other) => test.endsWith('test_a.py') && other.endsWith('test_cli.py'));
    const modules = (test: string) => [...((read?.runs.find((run) => run.kind === 'test' && run.test === test) as { modules: Map<string, unknown> } | undefined)?.modules.keys() ?? [])].sort();
    expect(modules('/repo/tests/test_a.py')).toEqual(['/repo/src/util.py', '/repo/tests/test_a.py', '/repo/tests/test_cli.py']);
    expect(modules('/repo/tests/test_b.py')).toEqual(['/repo/src/util.py', '/repo/tests/test_b.py']);
  });
});
