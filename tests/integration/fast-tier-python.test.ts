import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { build, presetGate, requireTools, run, stateOf } from '../helpers/fast-tier.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';

const ready = requireTools('pytest');

let repo: TempRepo;
afterEach(() => repo?.cleanup());

// A src-layout package: util is shared (price uses it), leaf stands alone; one test file each.
const SHOP = {
  '.gitignore': '__pycache__/\n.pytest_cache/\n',
  'pyproject.toml': '[project]\nname = "shop"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\ntestpaths = ["tests"]\n',
  'src/shop/__init__.py': '',
  'src/shop/util.py': 'def double(x):\n    return x * 2\n',
  'src/shop/price.py': 'from .util import double\n\n\ndef total(cents):\n    return double(cents) + 1\n',
  'src/shop/leaf.py': 'def greet():\n    return "hi"\n',
  'src/shop/unused.py': 'VALUE = 1\n',
  'tests/test_util.py': 'from shop.util import double\n\n\ndef test_double():\n    assert double(2) == 4\n',
  'tests/test_price.py': 'import shop.price\n\n\ndef test_total():\n    assert shop.price.total(2) == 5\n',
  'tests/test_leaf.py': 'from shop import leaf\n\n\ndef test_greet():\n    assert leaf.greet() == "hi"\n',
};

function setUp(files: Record<string, string> = SHOP, extraEnv: Record<string, string> = {}) {
  repo = makeRepo(files);
  const env = { PATH: toolEnv()['PATH'] ?? '', PYTHONDONTWRITEBYTECODE: '1', ...extraEnv };
  const gate = presetGate(repo.dir, 'pytest', env, 'test');
  return { gate, env: { ...repo.env, ...env } };
}

describe.skipIf(!ready)('pytest: the tests that import the change', () => {
  it('runs only the leaf\'s test for a change in the leaf', async () => {
    const { gate, env } = setUp();
    repo.write('src/shop/leaf.py', 'def greet():\n    return "hello"\n');
    const command = await build(repo.dir, gate, ['src/shop/leaf.py']);
    expect(command).toMatchObject({ argv: ['pytest', '-q', 'tests/test_leaf.py'], fast: true, why: 'only 1 of 3 test files: tests/test_leaf.py (the ones importing the change)' });
    const result = await run(repo.dir, gate, ['src/shop/leaf.py'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/1 failed/);
  });

  it('runs the shared module\'s tests and its dependents\', and catches a dependent it broke', async () => {
    const { gate, env } = setUp();
    // util renames double; its own test follows, price (never opened) still calls the old name.
    repo.write('src/shop/util.py', 'def twice(x):\n    return x * 2\n');
    repo.write('tests/test_util.py', 'from shop.util import twice\n\n\ndef test_twice():\n    assert twice(2) == 4\n');
    const files = ['src/shop/util.py', 'tests/test_util.py'];
    const command = await build(repo.dir, gate, files);
    expect(command.argv).toEqual(['pytest', '-q', 'tests/test_price.py', 'tests/test_util.py']);
    expect(command.why).toBe('only 2 of 3 test files: tests/test_price.py and tests/test_util.py (the ones importing the change)');
    const result = await run(repo.dir, gate, files, env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/ImportError: cannot import name 'double' from 'shop.util'/);
  });

  it('runs nothing for a module no test imports, and the full run for conftest.py and pyproject.toml', async () => {
    const { gate } = setUp();
    expect(await build(repo.dir, gate, ['src/shop/unused.py'])).toMatchObject({ nothingToRun: true, why: 'no test imports src/shop/unused.py' });
    repo.write('tests/conftest.py', 'import pytest\n');
    expect(await build(repo.dir, gate, ['tests/conftest.py', 'src/shop/leaf.py'])).toMatchObject({ argv: ['pytest', '-q'], fast: false, why: 'tests/conftest.py changed, which affects every test' });
    expect(await build(repo.dir, gate, ['pyproject.toml'])).toMatchObject({ argv: ['pytest', '-q'], fast: false });
    expect(await build(repo.dir, gate, ['tests/fixtures/prices.json'])).toMatchObject({ fast: false, why: 'tests/fixtures/prices.json changed, and tests may read it as data: it is in no package and no module names it' });
    expect(await build(repo.dir, gate, ['src/shop/leaf.py'], true)).toMatchObject({ argv: ['pytest', '-q'], fast: false, why: 'the full run' });
  });

  // Issue 42: a data file counts as the modules that may read it — its package's, and those naming it.
  it('a data file runs the tests of its package\'s modules, or of the modules naming it; one in no package that nothing names, the full run', async () => {
    const { gate, env } = setUp({
      ...SHOP,
      'src/rates/__init__.py': '',
      'src/rates/table.py': 'import json\nfrom pathlib import Path\n\n\ndef rate(code):\n    return json.loads((Path(__file__).parent / "data" / "rates.json").read_text())[code]\n',
      'src/rates/data/rates.json': '{"EUR": 2}\n',
      'tests/test_rates.py': 'from rates.table import rate\n\n\ndef test_rate():\n    assert rate("EUR") == 2\n',
      'tests/data/users.csv': 'ann\n',
      'tests/test_users.py': 'from pathlib import Path\n\n\ndef test_users():\n    assert (Path(__file__).parent / "data" / "users.csv").read_text() == "ann\\n"\n',
    });
    repo.write('src/rates/data/rates.json', '{"EUR": 3}\n');
    const command = await build(repo.dir, gate, ['src/rates/data/rates.json']);
    expect(command).toMatchObject({ argv: ['pytest', '-q', 'tests/test_rates.py'], fast: true, why: 'only 1 of 5 test files: tests/test_rates.py (the ones importing the change, src/rates/data/rates.json counted as its package\'s modules and those naming it)' });
    const result = await run(repo.dir, gate, ['src/rates/data/rates.json'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/FAILED tests\/test_rates\.py::test_rate/);
    expect(await build(repo.dir, gate, ['tests/data/users.csv'])).toMatchObject({ argv: ['pytest', '-q', 'tests/test_users.py'], fast: true });
    expect(await build(repo.dir, gate, ['tests/data/other.csv'])).toMatchObject({ argv: ['pytest', '-q'], fast: false, why: 'tests/data/other.csv changed, and tests may read it as data: it is in no package and no module names it' });
  });

  it('follows a conftest.py fixture: its folder\'s tests run when what it imports changes', async () => {
    const { gate, env } = setUp({
      ...SHOP,
      'tests/conftest.py': 'import pytest\nfrom shop.leaf import greet\n\n\n@pytest.fixture\ndef greeting():\n    return greet()\n',
      'tests/test_util.py': 'from shop.util import double\n\n\ndef test_double(greeting):\n    assert double(2) == 4 and greeting == "hi"\n',
    });
    repo.write('src/shop/leaf.py', 'def greet():\n    return "hello"\n');
    const command = await build(repo.dir, gate, ['src/shop/leaf.py']);
    expect(command).toMatchObject({ fast: false, why: '3 of 3 test files: every one imports the change' });
    const result = await run(repo.dir, gate, ['src/shop/leaf.py'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/2 failed, 1 passed/);
  });

  it('always runs a test that starts Python in another process: it may load the change', async () => {
    const cli = 'import os\nimport subprocess\nimport sys\n\n\ndef test_cli():\n    code = "import shop.leaf; assert shop.leaf.greet() == \'hi\'"\n    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": "src"})\n';
    const { gate, env } = setUp({ ...SHOP, 'tests/test_cli.py': cli });
    repo.write('src/shop/leaf.py', 'def greet():\n    return "hello"\n');
    const command = await build(repo.dir, gate, ['src/shop/leaf.py']);
    expect(command.argv).toEqual(['pytest', '-q', 'tests/test_cli.py', 'tests/test_leaf.py']);
    expect(command.why).toBe('only 2 of 4 test files: tests/test_cli.py and tests/test_leaf.py (the ones importing the change and 1 that reaches tests/test_cli.py, which runs Python in another process (sys.executable))');
    const result = await run(repo.dir, gate, ['src/shop/leaf.py'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/2 failed/);
  });

  it('for a change to test files alone, runs just those, though every test reaches code that starts processes', async () => {
    const { gate, env } = setUp({
      ...SHOP,
      'src/shop/__init__.py': 'from . import pager\n',
      'src/shop/pager.py': 'import subprocess\n\n\ndef page(text, cmd="cat"):\n    subprocess.run([cmd], input=text, text=True, check=True)\n',
    });
    repo.write('tests/test_leaf.py', 'from shop import leaf\n\n\ndef test_greet():\n    assert leaf.greet() == "hello"\n');
    const command = await build(repo.dir, gate, ['tests/test_leaf.py']);
    expect(command).toMatchObject({ argv: ['pytest', '-q', 'tests/test_leaf.py'], fast: true, why: 'only 1 of 3 test files: tests/test_leaf.py (the ones importing the change)' });
    expect((await run(repo.dir, gate, ['tests/test_leaf.py'], env)).status).toBe('failed');
    // A module change still runs every test that imports it, through the package's __init__.py.
    expect(await build(repo.dir, gate, ['src/shop/pager.py'])).toMatchObject({ fast: false, why: '3 of 3 test files: every one imports the change, all through src/shop/__init__.py' });
  });

  it('with no pytest config, runs the tests as the full run would: the root conftest.py loads', async () => {
    const { 'pyproject.toml': _config, ...withoutConfig } = SHOP;
    const { gate, env } = setUp({
      ...withoutConfig,
      'conftest.py': 'import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "src"))\n',
    });
    const command = await build(repo.dir, gate, ['src/shop/leaf.py']);
    expect(command.argv).toEqual(['pytest', '-q', 'tests/test_leaf.py']);
    expect((await run(repo.dir, gate, ['src/shop/leaf.py'], env)).status).toBe('passed');
  });

  it('runs the tests that still import a deleted module', async () => {
    const { gate, env } = setUp();
    repo.remove('src/shop/util.py');
    expect((await build(repo.dir, gate, ['src/shop/util.py'])).argv).toEqual(['pytest', '-q', 'tests/test_price.py', 'tests/test_util.py']);
    expect((await run(repo.dir, gate, ['src/shop/util.py'], env)).status).toBe('failed');
  });

  it('with --doctest-modules, runs the doctests of every module that reaches the change', async () => {
    const { gate, env } = setUp({
      ...SHOP,
      'pyproject.toml': '[tool.pytest.ini_options]\npythonpath = ["src"]\naddopts = "--doctest-modules"\n',
      'src/shop/leaf.py': 'def greet():\n    """\n    >>> greet()\n    \'hi\'\n    """\n    return "hi"\n',
    });
    repo.write('src/shop/leaf.py', 'def greet():\n    """\n    >>> greet()\n    \'hi\'\n    """\n    return "hello"\n');
    const command = await build(repo.dir, gate, ['src/shop/leaf.py']);
    expect(command.argv).toEqual(['pytest', '-q', 'src/shop/leaf.py', 'tests/test_leaf.py']);
    const result = await run(repo.dir, gate, ['src/shop/leaf.py'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/2 failed/);
  });

  it('passes the full run\'s config with -c when a folder nearer the tests has a config of its own', async () => {
    const { gate, env } = setUp({ ...SHOP, 'tests/setup.cfg': '[tool:pytest]\naddopts = --an-option-that-breaks-the-run\n' });
    const command = await build(repo.dir, gate, ['src/shop/leaf.py']);
    expect(command.argv).toEqual(['pytest', '-q', '-c', 'pyproject.toml', 'tests/test_leaf.py']);
    expect((await run(repo.dir, gate, ['src/shop/leaf.py'], env)).status).toBe('passed');
  });

  it('falls back to the full run when the config sets python_files', async () => {
    const { gate } = setUp({ ...SHOP, 'pytest.ini': '[pytest]\npython_files = check_*.py\n' });
    expect(await build(repo.dir, gate, ['src/shop/leaf.py'])).toMatchObject({ fast: false, why: 'the pytest config sets python_files, which gate does not follow' });
  });

  // Not measured against the real pytest-testmon (it can't be installed here): a fake package in a
  // fake prefix checks the detection and that the data file goes under gate's state.
  it('uses pytest-testmon when it is installed next to pytest, its data under gate\'s state', async () => {
    repo = makeRepo(SHOP);
    const prefix = join(repo.home, 'venv');
    const site = join(prefix, 'lib', 'python3.11', 'site-packages');
    mkdirSync(join(site, 'testmon'), { recursive: true });
    mkdirSync(join(prefix, 'bin'));
    writeFileSync(join(site, 'testmon', '__init__.py'), '');
    writeFileSync(
      join(site, 'testmon', 'fake_plugin.py'),
      'import os\n\n\ndef pytest_addoption(parser):\n    parser.addoption("--testmon", action="store_true")\n\n\ndef pytest_configure(config):\n    if config.getoption("testmon"):\n        open(os.environ["TESTMON_DATAFILE"], "w").write("fake")\n',
    );
    const realPytest = join(PROJECT_ROOT, '.cache', 'tools', 'py', 'bin', 'pytest');
    writeFileSync(join(prefix, 'bin', 'pytest'), `#!/bin/sh\nPYTHONPATH='${site}' exec '${realPytest}' -p testmon.fake_plugin "$@"\n`);
    chmodSync(join(prefix, 'bin', 'pytest'), 0o755);
    const env = { PATH: `${join(prefix, 'bin')}:${toolEnv()['PATH'] ?? ''}`, PYTHONDONTWRITEBYTECODE: '1' };
    const gate = presetGate(repo.dir, 'pytest', env, 'test');
    const { cacheDir } = stateOf(repo.dir, gate);
    const command = await build(repo.dir, gate, ['src/shop/leaf.py']);
    expect(command).toMatchObject({ argv: ['env', `TESTMON_DATAFILE=${cacheDir}/testmondata`, 'pytest', '-q', '--testmon'], fast: true });
    expect(command.why).toMatch(/^pytest-testmon: /);
    const result = await run(repo.dir, gate, ['src/shop/leaf.py'], { ...repo.env, ...env });
    expect(result.status).toBe('passed');
    expect(readFileSync(join(cacheDir, 'testmondata'), 'utf8')).toBe('fake');
    expect(existsSync(join(repo.dir, '.testmondata'))).toBe(false);
    expect(await build(repo.dir, gate, ['tests/conftest.py'])).toMatchObject({ argv: ['pytest', '-q'], fast: false });
  });

  it('not when the pytest that runs is the project\'s .venv one, without testmon, though the one on PATH has it', async () => {
    repo = makeRepo({ ...SHOP, '.gitignore': '__pycache__/\n.venv/\n' });
    const prefix = join(repo.home, 'venv');
    mkdirSync(join(prefix, 'lib', 'python3.11', 'site-packages', 'testmon'), { recursive: true });
    writeFileSync(join(prefix, 'lib', 'python3.11', 'site-packages', 'testmon', '__init__.py'), '');
    mkdirSync(join(prefix, 'bin'));
    writeFileSync(join(prefix, 'bin', 'pytest'), '#!/bin/sh\nexit 3\n');
    chmodSync(join(prefix, 'bin', 'pytest'), 0o755);
    // The project's environment: pyvenv.cfg and a bin folder whose pytest has no testmon.
    mkdirSync(join(repo.dir, '.venv', 'bin'), { recursive: true });
    writeFileSync(join(repo.dir, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
    symlinkSync(join(PROJECT_ROOT, '.cache', 'tools', 'py', 'bin', 'pytest'), join(repo.dir, '.venv', 'bin', 'pytest'));
    vi.stubEnv('PATH', `${join(prefix, 'bin')}:${toolEnv()['PATH'] ?? ''}`);
    try {
      const gate = presetGate(repo.dir, 'pytest', { PYTHONDONTWRITEBYTECODE: '1' }, 'test');
      expect(await build(repo.dir, gate, ['src/shop/leaf.py'])).toMatchObject({ argv: ['pytest', '-q', 'tests/test_leaf.py'], fast: true });
      expect(await run(repo.dir, gate, ['src/shop/leaf.py'], { ...repo.env, PATH: process.env['PATH'] ?? '' })).toMatchObject({ status: 'passed' });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

// Issue 27 (seen by the bench on click): Python trusts a .pyc whose source has the same size and
// mtime second, so an edit made within the second of a run that wrote one ran the old code.
describe.skipIf(!ready)('a .pyc in the tree is never what a gate runs', () => {
  it('runs the edited module, not a .pyc written for its earlier text of the same size and mtime', async () => {
    const { gate, env } = setUp();
    const path = join(repo.dir, 'src/shop/leaf.py');
    const before = statSync(path);
    // An earlier run (the user's, or gate's before this fix) compiled the module into src/shop/__pycache__.
    execFileSync(join(PROJECT_ROOT, '.cache', 'tools', 'py', 'bin', 'python'), ['-c', 'import sys; sys.path.insert(0, "src"); import shop.leaf'], { cwd: repo.dir, env: { PATH: env['PATH'] ?? '' } });
    expect(existsSync(join(repo.dir, 'src/shop/__pycache__'))).toBe(true);
    // The agent's edit: same size, and (within the same second) the same mtime.
    repo.write('src/shop/leaf.py', 'def greet():\n    return "ho"\n');
    utimesSync(path, before.atime, before.mtime);
    const result = await run(repo.dir, gate, ['src/shop/leaf.py'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toContain("AssertionError: assert 'ho' == 'hi'");
  });
});
