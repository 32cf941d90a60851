// Python: pint 0.25.3 (units of measure; ~70 typed modules, a pytest suite of ~2,000 tests), from
// its wheel on the pip index, which ships pint/testsuite/. Its dependencies go into a venv of their
// own (.cache/bench-projects/pint-venv) with the same pinned mypy, ruff and pytest as
// scripts/install-tools.mjs. The wheel has no pyproject.toml, so the tree gets one: pytest skips
// the benchmarks (they need pytest-benchmark); ruff and mypy ignore, file by file and module by
// module, exactly what they report before any edit — so that a red stop is the edit's.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, venv, wheel } from './fetch.mjs';

const VERSION = '0.25.3';
const DEPENDENCIES = ['flexcache==0.3', 'flexparser==0.4', 'platformdirs==4.12.2'];

const toml = (values) => `[${values.map((value) => JSON.stringify(value)).join(', ')}]`;

/** file → the ruff codes it trips today. */
function ruffFindings(dir, env) {
  const output = run('ruff', ['check', '--no-cache', '--output-format=json', '.'], { cwd: dir, env }, [0, 1]);
  const byFile = new Map();
  for (const finding of JSON.parse(output)) {
    const file = finding.filename.slice(dir.length + 1);
    byFile.set(file, new Set([...(byFile.get(file) ?? []), finding.code]));
  }
  return byFile;
}

/** module → the mypy error codes it reports today. */
function mypyFindings(dir, env) {
  const output = run('mypy', ['--cache-dir=/dev/null', '--no-error-summary', '--show-error-codes', '.'], { cwd: dir, env }, [0, 1]);
  const byModule = new Map();
  for (const match of output.matchAll(/^([^:\n]+\.pyi?):\d+: error: .*\[([a-z-]+)\]$/gm)) {
    const module = match[1].replace(/\.pyi?$/, '').replace(/\/__init__$/, '').replaceAll('/', '.');
    byModule.set(module, new Set([...(byModule.get(module) ?? []), match[2]]));
  }
  return byModule;
}

function pyproject(ruff, mypy) {
  const lines = [
    '# gate bench: pint ships no pyproject.toml in its wheel; this one makes every tool green before any edit.',
    '[tool.pytest.ini_options]',
    'testpaths = ["pint/testsuite"]',
    'addopts = ["--ignore=pint/testsuite/benchmarks"]',
    '',
    '[tool.ruff.lint.per-file-ignores]',
    ...[...ruff].sort(([a], [b]) => a.localeCompare(b)).map(([file, codes]) => `${JSON.stringify(file)} = ${toml([...codes].sort())}`),
    '',
    '[tool.mypy]',
    'exclude = ["pint/testsuite/benchmarks"]',
  ];
  for (const [module, codes] of [...mypy].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push('', '[[tool.mypy.overrides]]', `module = ${JSON.stringify(module)}`, `disable_error_code = ${toml([...codes].sort())}`);
  }
  return `${lines.join('\n')}\n`;
}

export const pint = {
  id: 'pint',
  stack: 'python',
  title: `pint ${VERSION}`,
  origin: `wheel pint==${VERSION} from the pip index`,
  needs: ['python3'],
  fetch: ({ cache, toolsPython }) => wheel(cache, toolsPython, 'pint', VERSION),
  /** The venv the gates run in: pint's dependencies and the pinned tools. */
  path: ({ cache, toolsPins }) => [venv(join(cache, 'pint-venv'), 'python3', [...toolsPins, ...DEPENDENCIES])],
  prepare(source, dir, { env }) {
    cpSync(join(source, 'pint'), join(dir, 'pint'), { recursive: true });
    // pint reads its version from its metadata; the wheel's dist-info keeps that working from the tree.
    cpSync(join(source, `pint-${VERSION}.dist-info`), join(dir, `pint-${VERSION}.dist-info`), { recursive: true });
    writeFileSync(join(dir, '.gitignore'), '__pycache__/\n.mypy_cache/\n.ruff_cache/\n.pytest_cache/\n');
    writeFileSync(join(dir, 'pyproject.toml'), pyproject(new Map(), new Map()));
    const ruff = ruffFindings(dir, env);
    const mypy = mypyFindings(dir, env);
    writeFileSync(join(dir, 'pyproject.toml'), pyproject(ruff, mypy));
    const left = [...ruffFindings(dir, env).keys(), ...mypyFindings(dir, env).keys()];
    if (left.length > 0) throw new Error(`pint: ruff or mypy still fail before any edit, in ${left.join(', ')}`);
    const text = readFileSync(join(dir, 'pyproject.toml'), 'utf8');
    return `pyproject.toml (${text.split('\n').length} lines): ruff ignores in ${ruff.size} files, mypy codes off in ${mypy.size} modules`;
  },
  env: () => ({}),
  gates: [
    {
      preset: 'pytest',
      first: {
        what: 'pint/converters.py: Converter.from_reference returns 0 (the core, reached by every test module)',
        file: 'pint/converters.py',
        replace: [
          '    def from_reference(self, value: Magnitude, inplace: bool = False) -> Magnitude:\n        return value\n',
          '    def from_reference(self, value: Magnitude, inplace: bool = False) -> Magnitude:\n        return value * 0\n',
        ],
        expect: [/test_converters\.py::TestConverter::test_converter\b/],
      },
      second: {
        what: 'pint/testsuite/test_pitheorem.py: a new test with a wrong expectation',
        file: 'pint/testsuite/test_pitheorem.py',
        append: '\n\ndef test_gate_bench_wrong_expectation():\n    assert 1 + 1 == 3\n',
        expect: [/test_pitheorem\.py::test_gate_bench_wrong_expectation/],
      },
    },
    {
      preset: 'mypy',
      first: {
        what: 'pint/converters.py: a function returning str where it says int',
        file: 'pint/converters.py',
        append: '\n\ndef _gate_bench_wrong_return() -> int:\n    return "pint"\n',
        expect: [/pint\/converters\.py:\d+: error: Incompatible return value type/],
      },
      second: {
        what: 'pint/pint_eval.py: a function returning str where it says int',
        file: 'pint/pint_eval.py',
        append: '\n\ndef _gate_bench_wrong_return() -> int:\n    return "eval"\n',
        expect: [/pint\/pint_eval\.py:\d+: error: Incompatible return value type/],
      },
    },
    {
      preset: 'ruff',
      first: {
        what: 'pint/converters.py: an undefined name (F821)',
        file: 'pint/converters.py',
        append: '\n\ndef _gate_bench_undefined() -> object:\n    return gate_bench_undefined_name\n',
        expect: [/pint\/converters\.py:\d+/, /F821/],
      },
      second: {
        what: 'pint/pint_eval.py: an undefined name (F821)',
        file: 'pint/pint_eval.py',
        append: '\n\ndef _gate_bench_undefined() -> object:\n    return gate_bench_undefined_name\n',
        expect: [/pint\/pint_eval\.py:\d+/, /F821/],
      },
    },
  ],
};
