import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, presetGate, requireTools, run, stateOf } from '../helpers/fast-tier.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';
import { rememberStartRun } from '../../src/verdict/baseline-failures.js';

const ready = requireTools('pytest');

const UTIL = 'RATE = 2\n\n\ndef double(x):\n    return x * RATE\n\n\nclass Tag:\n    def label(self, x):\n        return f"#{x}"\n';

// Every test imports shop/__init__, which imports util: the import graph picks them all for any
// change to util. test_cli reaches Tag.label only in a process of its own, which no tracer here sees.
const SHOP = {
  '.gitignore': '__pycache__/\n.pytest_cache/\n',
  'pyproject.toml': '[project]\nname = "shop"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\ntestpaths = ["tests"]\n',
  'src/shop/__init__.py': 'from .util import Tag, double\n',
  'src/shop/util.py': UTIL,
  'tests/test_double.py': 'from shop import double\n\n\ndef test_double():\n    assert double(2) == 4\n',
  'tests/test_label.py': 'from shop import Tag\n\n\ndef test_label():\n    assert Tag().label(1) == "#1"\n',
  // A failure the project had before: the run that records fails, and this file gets no record.
  'tests/test_old_failure.py': 'def test_old():\n    assert 1 == 2\n',
  'tests/test_rate.py': 'from shop.util import RATE\n\n\ndef test_rate():\n    assert RATE == 2\n',
  // Tests one by one: each runs only when it executed a changed function; one that failed, always.
  'tests/test_both.py':
    'from shop import Tag, double\n\n\ndef test_twice():\n    assert double(1) == 2\n\n\ndef test_tag():\n    assert Tag().label(3) == "#3"\n\n\ndef test_failed_before():\n    assert double(0) == 1\n',
  // A module-wide fixture's calls run for every test of the file.
  'tests/test_fixture.py':
    'import pytest\n\nfrom shop import Tag, double\n\n\n@pytest.fixture(scope="module")\ndef base():\n    return double(5)\n\n\ndef test_uses(base):\n    assert base == 10\n\n\ndef test_label_only():\n    assert Tag().label(0) == "#0"\n',
  'tests/test_cli.py':
    'import subprocess\nimport sys\n\nimport shop\n\n\ndef test_cli():\n    code = "import sys; sys.path.insert(0, \'src\'); from shop import Tag; assert Tag().label(2) == \'#2\'"\n    subprocess.run([sys.executable, "-c", code], check=True)\n',
};

let repo: TempRepo;
let env: Record<string, string>;
const gate = () => presetGate(repo.dir, 'pytest', env, 'test');
const tests = (argv: string[]) => argv.filter((word) => word.startsWith('tests/'));

beforeAll(async () => {
  if (!ready) return;
  repo = makeRepo(SHOP);
  env = { ...repo.env, PATH: toolEnv()['PATH'] ?? '', PYTHONDONTWRITEBYTECODE: '1' };
  const full = await run(repo.dir, gate(), [], env, true);
  expect(full.status, full.output).toBe('failed');
  expect(full.output).toMatch(/2 failed, 8 passed/);
}, 60_000);
afterAll(() => repo?.cleanup());

describe.skipIf(!ready)('pytest: tests chosen by what they executed on the last passing full run', () => {
  it('the full run leaves a record of the functions each test file executed, by qualified name, though a test failed', () => {
    const { cacheDir } = stateOf(repo.dir, gate());
    const record = JSON.parse(readFileSync(join(cacheDir, 'coverage-record.json'), 'utf8'));
    const util = join(repo.dir, 'src/shop/util.py');
    expect(record.tests[join(repo.dir, 'tests/test_double.py')].loaded[util].called).toEqual(['double']);
    // test_fixture's module fixture ran double() for every test after it (the shared part): test_label's own test did not.
    expect(record.tests[join(repo.dir, 'tests/test_label.py')].loaded[util].called).toEqual(['Tag.label', 'double']);
    expect(record.tests[join(repo.dir, 'tests/test_label.py')].byTest.items['tests/test_label.py::test_label'][util]).toEqual(['Tag.label']);
    // It started a process: what ran there is in no record. It failed: it must run until it passes.
    expect(record.tests[join(repo.dir, 'tests/test_cli.py')].byTest.items).toEqual({ 'tests/test_cli.py::test_cli': null });
    expect(record.tests[join(repo.dir, 'tests/test_old_failure.py')].byTest.items).toEqual({ 'tests/test_old_failure.py::test_old': null });
    const both = record.tests[join(repo.dir, 'tests/test_both.py')].byTest;
    expect(both.items['tests/test_both.py::test_twice'][util]).toEqual(['double']);
    expect(both.items['tests/test_both.py::test_tag'][util]).toEqual(['Tag.label']);
    expect(both.items['tests/test_both.py::test_failed_before']).toBeNull();
    expect(record.tests[join(repo.dir, 'tests/test_fixture.py')].byTest.common[util]).toEqual(['double']);
    expect(readdirSync(cacheDir).filter((name) => name.startsWith('pytest-record'))).toEqual([]);
  });

  it('a change inside one method runs the test that executed it and the one the record misses (another process), and catches both', async () => {
    repo.write('src/shop/util.py', UTIL.replace('f"#{x}"', 'f"no. {x}"'));
    const built = await build(repo.dir, gate(), ['src/shop/util.py']);
    expect(built.why).toMatch(
      /^6 of 7 test files import the change; 4 of 6 test files: 3 executed Tag\.label\(\) in src\/shop\/util\.py, 1 have no record of their own \(new or changed since\); in 2 of them 2 tests that executed none of it left out \(coverage record of [\d-]+ [\d:]+ UTC\)$/,
    );
    expect(tests(built.argv)).toEqual(['tests/test_both.py', 'tests/test_cli.py', 'tests/test_fixture.py', 'tests/test_label.py']);
    const result = await run(repo.dir, gate(), ['src/shop/util.py'], env);
    expect(result.status).toBe('failed');
    // test_twice and test_uses never executed Tag.label; the test that failed on the record's run runs.
    expect(result.output).toMatch(/5 failed, 2 deselected/);
    expect(result.output).toContain('test_failed_before');
  });

  it('a new or changed test file has no record: it runs with those that executed the changed function, and alone', async () => {
    repo.write('src/shop/util.py', UTIL.replace('x * RATE', 'RATE * x'));
    repo.write('tests/test_more.py', 'from shop import double\n\n\ndef test_more():\n    assert double(3) == 6\n');
    // Every test file's module code ran at collection: a changed one is no change to the others.
    repo.write('tests/test_label.py', `${SHOP['tests/test_label.py']}\n\ndef test_label_again():\n    assert Tag().label(2) == "#2"\n`);
    const built = await build(repo.dir, gate(), ['src/shop/util.py', 'tests/test_more.py', 'tests/test_label.py']);
    // test_rate too: a wider fixture's calls count for every test file (test_fixture's ran double()).
    expect(tests(built.argv)).toEqual(['tests/test_both.py', 'tests/test_cli.py', 'tests/test_double.py', 'tests/test_fixture.py', 'tests/test_label.py', 'tests/test_more.py', 'tests/test_rate.py']);
    // test_fixture's module fixture ran double() for every test after it: no test can be left out of a file.
    expect(built.why).not.toMatch(/left out/);
    repo.remove('tests/test_more.py');
    repo.write('tests/test_label.py', SHOP['tests/test_label.py']);
  });

  it('a change at module level, to a signature or to a docstring falls back to the import graph', async () => {
    for (const changed of [UTIL.replace('RATE = 2', 'RATE = 3'), UTIL.replace('label(self, x)', 'label(self, x, sign="#")'), UTIL.replace('def double(x):\n', 'def double(x):\n    """Twice x."""\n')]) {
      repo.write('src/shop/util.py', changed);
      const built = await build(repo.dir, gate(), ['src/shop/util.py']);
      expect(built.why).toBe('only 6 of 7 test files: tests/test_both.py, tests/test_cli.py, tests/test_double.py and 3 more (the ones importing the change)');
    }
  });
});

describe.skipIf(!ready)("pytest: the start's evidence, gathered on a copy while the agent works, records for the work tree", () => {
  it('records the copy’s run under the work tree’s paths, hashed as the copy had them: an edit made meanwhile is the change', async () => {
    const start = makeRepo(SHOP);
    try {
      const startEnv = { ...start.env, PATH: toolEnv()['PATH'] ?? '', PYTHONDONTWRITEBYTECODE: '1' };
      const startGate = presetGate(start.dir, 'pytest', startEnv, 'test');
      // The agent's edit, made before the gathering's run: the copy runs the start's code, and the record must say so.
      start.write('src/shop/util.py', UTIL.replace('f"#{x}"', 'f"no. {x}"'));
      const stateDir = join(start.dir, '.git', 'gate');
      const kept = await rememberStartRun({ root: start.dir, stateDir, tree: 'HEAD', key: 'start', gate: startGate, env: startEnv, stillValid: () => true, record: true });
      expect(kept).toBe(true);
      const { cacheDir } = stateOf(start.dir, startGate);
      const record = JSON.parse(readFileSync(join(cacheDir, 'coverage-record.json'), 'utf8'));
      const util = join(start.dir, 'src/shop/util.py');
      expect(Object.keys(record.tests).every((path) => path.startsWith(`${start.dir}/tests/`))).toBe(true);
      expect(record.tests[join(start.dir, 'tests/test_label.py')].byTest.items['tests/test_label.py::test_label'][util]).toEqual(['Tag.label']);
      // The stop: Tag.label changed since the start, so only the tests that executed it (and those without a record) run.
      const built = await build(start.dir, startGate, ['src/shop/util.py']);
      expect(built.why).toMatch(/^6 of 7 test files import the change; 4 of 6 test files: 3 executed Tag\.label\(\) in src\/shop\/util\.py, 1 have no record/);
      const result = await run(start.dir, startGate, ['src/shop/util.py'], startEnv);
      expect(result.output).toMatch(/5 failed, 2 deselected/);
    } finally {
      start.cleanup();
    }
  }, 60_000);
});
