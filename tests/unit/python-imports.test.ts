import { describe, expect, it } from 'vitest';
import { parsePythonImports, type PythonSource } from '../../src/fast/parse-python-imports.js';
import { findImporters } from '../../src/fast/python-module-graph.js';
import { readKey, sectionOf, words } from '../../src/fast/read-pytest-config.js';
import { selectPythonTests } from '../../src/fast/select-python-tests.js';

const modules = (source: PythonSource) => source.imports.map((entry) => `${'.'.repeat(entry.level)}${entry.module}${entry.names.length ? `:${entry.names.join(',')}` : ''}`);

describe('parsePythonImports', () => {
  it('reads every import form: plain, dotted, aliased, from, relative, parenthesised, star, nested, after a colon', () => {
    const source = parsePythonImports(
      [
        'import os, shop.util as u',
        'from shop.price import (total,',
        '    discount as d,  # a comment: import fake',
        ')',
        'from . import leaf',
        'from .. import up',
        'from .sub.mod import *',
        'from.dots import x',
        'def f():',
        '    import inner',
        'try: import optional',
        'except ImportError: pass',
        'x = 1; import after_semicolon',
        'import a \\',
        '    , b',
      ].join('\n'),
    );
    expect(modules(source)).toEqual([
      'shop.price:total,discount',
      '.:leaf',
      '..:up',
      '.sub.mod:*',
      '.dots:x',
      'os',
      'shop.util',
      'inner',
      'optional',
      'after_semicolon',
      'a',
      'b',
    ]);
    expect(source.opaque).toBeUndefined();
  });

  it('ignores imports inside strings and comments, f-strings included', () => {
    const source = parsePythonImports(['# import hidden', 'doc = """', 'import in_docstring', '"""', "s = 'from x import y'", 'f = f"{\'import q\'} {d["k"]}"', 'import real'].join('\n'));
    expect(modules(source)).toEqual(['real']);
  });

  it('reads import calls with a literal name, pytest_plugins and dotted strings such as mock.patch targets', () => {
    const source = parsePythonImports(
      [
        'importlib.import_module("shop.plugins.csv")',
        'importlib.import_module(".local", __package__)',
        'np = pytest.importorskip("numpy")',
        'pytest_plugins = ["shop.fixtures", "other"]',
        'mock.patch("shop.price.total")',
        'not_a_module = "hello world"',
      ].join('\n'),
    );
    expect(modules(source)).toEqual(expect.arrayContaining(['shop.plugins.csv', '.local', 'numpy', 'shop.fixtures', 'other', 'shop.price.total']));
    expect(modules(source)).not.toContain('hello world');
    expect(source.opaque).toBeUndefined();
  });

  it('marks code that loads modules it does not name: computed imports, subprocesses, exec, plugin discovery', () => {
    expect(parsePythonImports('importlib.import_module(name)').opaque).toBe('imports a module by a computed name');
    expect(parsePythonImports('importlib.import_module(f"shop.{name}")').opaque).toBe('imports a module by a computed name');
    expect(parsePythonImports('__import__(name)').opaque).toBe('imports a module by a computed name');
    expect(parsePythonImports('import subprocess').opaque).toBeUndefined();
    expect(parsePythonImports('exec(code)').opaque).toBe('runs code from a string');
    expect(parsePythonImports('cursor.exec(query)').opaque).toBeUndefined();
    expect(parsePythonImports('from importlib.metadata import entry_points').opaque).toBe('discovers modules at run time');
    expect(parsePythonImports('pytest_plugins = PLUGINS').opaque).toBe('names its pytest plugins by a computed value');
  });
});

describe('parsePythonImports: processes', () => {
  it('tells a file that starts processes from one that names Python as their program', () => {
    expect(parsePythonImports('import subprocess\nsubprocess.Popen([pager])')).toEqual({ imports: [{ level: 0, module: 'subprocess', names: [] }], opaque: undefined, spawns: true });
    expect(parsePythonImports('os.system("shop-cli")')).toMatchObject({ spawns: true, commands: ['shop-cli'] });
    expect(parsePythonImports('subprocess.run([sys.executable, "-m", "shop"])').python).toEqual({ what: 'sys.executable', runsTests: false });
    expect(parsePythonImports('cmd = f"{sys.executable} -c {code}"').python).toEqual({ what: 'sys.executable', runsTests: false });
    expect(parsePythonImports('run(["/usr/bin/python3.12", "x"])').python).toEqual({ what: '"python3.12"', runsTests: false });
    expect(parsePythonImports('run(["python", "-m", "pytest", "tests"])').python).toEqual({ what: 'pytest', runsTests: true });
    expect(parsePythonImports('pytester.runpytest_subprocess()').python).toEqual({ what: 'runpytest_subprocess', runsTests: true });
    expect(parsePythonImports('run("scripts/make_docs.py --all")').python).toEqual({ what: '"make_docs.py"', runsTests: false });
    expect(parsePythonImports('run("cd docs && env LANG=C python3 -m shop", shell=True)').python).toEqual({ what: '"python3"', runsTests: false });
    expect(parsePythonImports('run("make check; pytest -x", shell=True)').python).toEqual({ what: 'pytest', runsTests: true });
    expect(parsePythonImports('"""Uses the python interpreter."""').python).toBeUndefined();
  });

  it('does not take a usage string, a docstring or a comment for a program', () => {
    const source = parsePythonImports(['def name():', '    """Returns ``python -m name``, see https://docs.python.org."""', '    # sys.executable', '    return f"python -m {mod}"'].join('\n'));
    expect(source.python).toBeUndefined();
    expect(source.spawns).toBeUndefined();
  });

  it('keeps the words that may name a test file, and the console scripts setup.py declares', () => {
    expect(parsePythonImports('run(["python", "tests/test_cli.py"])').testWords).toEqual(['tests', 'test_cli.py']);
    expect(parsePythonImports('setup(entry_points={"console_scripts": ["shop-tool = shop.cli:main"]})').scripts).toEqual(['shop-tool']);
  });
});

describe('findImporters', () => {
  const graph = (files: Record<string, string>) => {
    const sources = new Map(Object.entries(files).map(([path, text]) => [path, parsePythonImports(text)]));
    const importers = findImporters(Object.keys(files), sources);
    return (path: string) => [...(importers.get(path) ?? [])].sort();
  };

  it('resolves absolute imports in src/ and top-level packages, relative imports, and a test folder on sys.path', () => {
    const importers = graph({
      'src/shop/__init__.py': '',
      'src/shop/util.py': '',
      'src/shop/price.py': 'from .util import double',
      'src/shop/sub/__init__.py': 'from .. import util',
      'tools/report.py': 'from shop.price import total',
      'tests/helpers.py': '',
      'tests/test_price.py': 'import helpers\nimport shop.price',
      'tests/test_json.py': 'import json',
    });
    expect(importers('src/shop/util.py')).toEqual(['src/shop/price.py', 'src/shop/sub/__init__.py']);
    expect(importers('src/shop/price.py')).toEqual(['tests/test_price.py', 'tools/report.py']);
    // Importing shop.price (or anything in shop) runs shop/__init__.py first.
    expect(importers('src/shop/__init__.py')).toEqual(['src/shop/price.py', 'src/shop/sub/__init__.py', 'src/shop/util.py', 'tests/test_price.py', 'tools/report.py']);
    expect(importers('tests/helpers.py')).toEqual(['tests/test_price.py']);
  });

  it('treats `from pkg import name` as a possible submodule, and `*` as all of them', () => {
    const importers = graph({ 'pkg/__init__.py': '', 'pkg/a.py': '', 'pkg/b/__init__.py': '', 'x.py': 'from pkg import a', 'y.py': 'from pkg import *' });
    expect(importers('pkg/a.py')).toEqual(['x.py', 'y.py']);
    expect(importers('pkg/b/__init__.py')).toEqual(['y.py']);
  });

  it('links a deleted module to what still imports it', () => {
    const sources = new Map([['test_a.py', parsePythonImports('from gone import f')]]);
    expect([...(findImporters(['test_a.py', 'gone.py'], sources).get('gone.py') ?? [])]).toEqual(['test_a.py']);
  });
});

describe('selectPythonTests', () => {
  const select = (files: Record<string, string>, changed: string[]) => {
    const sources = new Map(Object.entries(files).map(([path, text]) => [path, parsePythonImports(text)]));
    return selectPythonTests({ paths: Object.keys(files), sources, changed, collects: (path) => /(^|\/)test_[^/]*\.py$/.test(path), alwaysRun: [] });
  };

  it('follows imports transitively, and a conftest.py to every test below it', () => {
    const files = {
      'lib.py': '',
      'mid.py': 'import lib',
      'tests/test_mid.py': 'import mid',
      'tests/test_other.py': '',
      'tests/api/conftest.py': 'import lib',
      'tests/api/test_api.py': '',
    };
    expect(select(files, ['lib.py']).targets).toEqual(['tests/api/test_api.py', 'tests/test_mid.py']);
    expect(select(files, ['tests/test_other.py']).targets).toEqual(['tests/test_other.py']);
  });

  it('always runs a test that reaches code loading modules gate can\'t see', () => {
    const selection = select({ 'lib.py': '', 'loader.py': 'importlib.import_module(name)', 'test_a.py': 'import lib', 'test_plugins.py': 'import loader', 'test_b.py': '' }, ['lib.py']);
    expect(selection).toMatchObject({ targets: ['test_a.py', 'test_plugins.py'], reached: 1, total: 3, opaque: { file: 'loader.py', why: 'imports a module by a computed name' } });
  });

  // A library (click) whose pager starts processes; its usage text names `python -m`.
  const PAGER = {
    'shop/__init__.py': 'from . import pager, lib, usage',
    'shop/lib.py': '',
    'shop/pager.py': 'import subprocess\nfrom .usage import usage\n\ndef page(text, cmd="less"):\n    subprocess.Popen([cmd]).communicate(text)',
    'shop/usage.py': 'def usage(mod):\n    return f"python -m {mod}"',
    'tests/test_lib.py': 'from shop import lib',
    'tests/test_pager.py': 'from shop import pager',
    'tests/test_other.py': 'import json',
  };

  it('does not run a test for a change it can\'t load: the process it reaches starts no Python', () => {
    const selection = select({ ...PAGER, 'shop/__init__.py': '', 'tests/test_lib.py': 'import shop.lib' }, ['shop/lib.py']);
    expect(selection).toMatchObject({ targets: ['tests/test_lib.py'], reached: 1, opaque: undefined });
  });

  it('runs a test that starts Python, or hands Python to code that starts processes, for a module change', () => {
    const files = {
      ...PAGER,
      'shop/__init__.py': '',
      'tests/test_cli.py': 'import subprocess, sys\n\ndef test_cli():\n    subprocess.run([sys.executable, "-c", "import shop.lib"])',
      'tests/test_pager.py': 'import sys\nfrom shop import pager\n\ndef test_py_pager():\n    pager.page("x", cmd=sys.executable)',
    };
    const selection = select(files, ['shop/lib.py']);
    expect(selection.targets).toEqual(['tests/test_cli.py', 'tests/test_lib.py', 'tests/test_pager.py']);
    expect(selection.opaque).toEqual({ file: 'tests/test_cli.py', why: 'runs Python in another process (sys.executable)' });
    // A library module that names the interpreter for the one that starts the process.
    const library = { 'lib.py': '', 'command.py': 'import sys\nPYTHON = [sys.executable, "-m", "worker"]', 'runner.py': 'import subprocess\nfrom command import PYTHON', 'test_run.py': 'import runner', 'test_x.py': '' };
    expect(select(library, ['lib.py'])).toMatchObject({ targets: ['test_run.py'], opaque: { file: 'command.py', why: 'names Python as a program (sys.executable) for code that runs other processes' } });
  });

  it('runs a test that starts the project\'s console script', () => {
    const files = { 'lib.py': '', 'test_tool.py': 'import subprocess\nsubprocess.run(["shop-tool", "--help"])', 'test_x.py': '' };
    const sources = new Map(Object.entries(files).map(([path, text]) => [path, parsePythonImports(text)]));
    const input = { paths: Object.keys(files), sources, changed: ['lib.py'], collects: (path: string) => path.startsWith('test_'), alwaysRun: [] };
    expect(selectPythonTests(input).targets).toEqual([]);
    expect(selectPythonTests({ ...input, scripts: ['shop-tool'] }).targets).toEqual(['test_tool.py']);
  });

  it('for a change to test files alone, runs those and only the tests whose process runs a test runner or names them', () => {
    const files = {
      ...PAGER,
      'tests/test_cli.py': 'import subprocess, sys\nimport shop\nsubprocess.run([sys.executable, "-c", "import shop"])',
      'tests/test_meta.py': 'import subprocess, sys\nsubprocess.run([sys.executable, "-m", "pytest", "tests/test_lib.py"])',
      'tests/test_script.py': 'import subprocess, sys\nsubprocess.run([sys.executable, "tests/test_other.py"])',
    };
    expect(select(files, ['tests/test_lib.py']).targets).toEqual(['tests/test_lib.py', 'tests/test_meta.py']);
    expect(select(files, ['tests/test_other.py']).targets).toEqual(['tests/test_meta.py', 'tests/test_other.py', 'tests/test_script.py']);
    expect(select(files, ['tests/test_pager.py']).targets).toEqual(['tests/test_meta.py', 'tests/test_pager.py']);
    // Every test imports shop, whose pager starts processes: that alone pulls none of them in.
    const everyone = { ...PAGER, 'tests/test_other.py': 'import shop' };
    expect(select(everyone, ['tests/test_lib.py']).targets).toEqual(['tests/test_lib.py']);
    expect(select(everyone, ['shop/usage.py'])).toMatchObject({ reached: 3, opaque: undefined, through: { file: 'shop/__init__.py', count: 3 } });
  });
});

describe('pytest config text', () => {
  it('reads a key from an ini section or a TOML table, across continuation lines', () => {
    const ini = sectionOf('[metadata]\nname = x\n[tool:pytest]\ntestpaths =\n    tests\n    integration\naddopts = -ra -k "not slow"\n[flake8]\nmax = 1\n');
    expect(words(readKey(ini, 'testpaths') ?? '')).toEqual(['tests', 'integration']);
    expect(words(readKey(ini, 'addopts') ?? '')).toEqual(['-ra', '-k', 'not slow']);
    const toml = sectionOf('[project]\nname = "x"\n\n[tool.pytest.ini_options]\ntestpaths = [\n  "tests",\n  "docs",\n]\naddopts = "-q --doctest-modules"\n\n[tool.ruff]\nline-length = 1\n');
    expect(words(readKey(toml, 'testpaths') ?? '')).toEqual(['tests', 'docs']);
    expect(words(readKey(toml, 'addopts') ?? '')).toEqual(['-q', '--doctest-modules']);
    expect(readKey(toml, 'line-length')).toBeUndefined();
  });
});
