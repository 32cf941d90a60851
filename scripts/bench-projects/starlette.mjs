// Python: starlette at a pinned commit of its repository (flat layout, 33 test files, every one
// loading starlette/datastructures.py through requests, responses or routing). Installed like
// scripts/bench-projects/start-verdicts.mjs does: its dev group as the machine's pip index has it,
// downloaded once into .cache/bench-projects/starlette-wheels; each temp repo makes its own .venv
// from them, offline, with starlette editable. One fix-up in pyproject.toml: anyio 4.15 (the index
// has no 4.14.0) deprecates anyio.abc.BlockingPortal, which starlette's filterwarnings=error turns
// into a conftest ImportError; that one warning is ignored. Measured with the gates `gate init` writes.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportTree, gitSnapshot, makeOnce, pipEnv, run } from './fetch.mjs';

const REPO = 'Kludex/starlette';
const COMMIT = '5174d4c8358a6f06aa8056bafd14c2272dab8dd1';
// Its dev group, as the index has it: mypy 2.4.0 / ruff 0.16.9 (2.1.0 / 0.15.19 absent), importlib-metadata
// 9.0.1 (9.0.0 absent), no types-PyYAML, no backports-zstd (httpx2[zstd]), anyio 4.15.1 only (lock: 4.14.0).
const WHEELS = ['itsdangerous', 'jinja2', 'python-multipart>=0.0.18', 'pyyaml', 'httpx>=0.27.0,<0.29.0', 'httpx2>=2.0.0', 'anyio>=3.6.2,<5', 'typing_extensions', 'coverage>=7.8.2', 'importlib-metadata==9.0.1', 'mypy==2.4.0', 'ruff==0.16.9', 'pytest==9.1.1', 'trio', 'hatchling', 'editables'];
const INSTALL = ['itsdangerous', 'jinja2', 'python-multipart', 'pyyaml', 'httpx', 'httpx2', 'anyio', 'typing_extensions', 'coverage', 'importlib-metadata', 'mypy', 'ruff', 'pytest', 'trio', 'hatchling', 'editables'];
const STRICT = '    "error",\n';
const IGNORED = '    "ignore:The anyio.abc.BlockingPortal alias is deprecated:DeprecationWarning",\n';

const wheelsIn = (cache) => join(cache, 'starlette-wheels');

export const starlette = {
  id: 'starlette',
  stack: 'python',
  title: 'starlette 1.x (5174d4c)',
  origin: `github ${REPO}@${COMMIT.slice(0, 10)}`,
  init: true,
  target: 0.25,
  needs: ['python3'],
  fetch: ({ cache }) => {
    makeOnce(wheelsIn(cache), (dir) => run('python3', ['-m', 'pip', 'download', '--quiet', '-d', dir, ...WHEELS], { env: pipEnv() }));
    return makeOnce(join(cache, `starlette-${COMMIT}-tree`), (dir) => exportTree(gitSnapshot(cache, { repo: REPO, commit: COMMIT }), dir));
  },
  prepare(source, dir) {
    run('cp', ['-a', `${source}/.`, dir]);
    run('rm', ['-f', join(dir, '.gate-bench-made')]);
    const file = join(dir, 'pyproject.toml');
    const text = readFileSync(file, 'utf8');
    if (!text.includes(STRICT)) throw new Error(`starlette: no ${JSON.stringify(STRICT)} in pyproject.toml, fix the bench`);
    writeFileSync(file, text.replace(STRICT, `${STRICT}${IGNORED}`));
    return 'pyproject.toml ignores anyio 4.15\'s BlockingPortal deprecation (the index has no anyio 4.14.0); a .venv per temp repo from its dev group';
  },
  /** In the temp repo, before its first commit: the venv a contributor makes (.venv is in its .gitignore). */
  setup(dir, env, { cache }) {
    const wheels = wheelsIn(cache);
    if (!existsSync(wheels) || readdirSync(wheels).length === 0) throw new Error(`starlette: no wheels in ${wheels}`);
    const offline = ['install', '--quiet', '--no-index', '--find-links', wheels];
    const pip = join(dir, '.venv', 'bin', 'pip');
    run('python3', ['-m', 'venv', '.venv'], { cwd: dir, env });
    run(pip, [...offline, ...INSTALL], { cwd: dir, env: pipEnv() });
    run(pip, [...offline, '--no-build-isolation', '--no-deps', '-e', '.'], { cwd: dir, env: pipEnv() });
  },
  localPath: ['.venv/bin'],
  env: () => ({}),
  full: ['pytest'],
  // Red before any edit, here: 6 tests (request and websocket headers under this httpx; a directory
  // permission test, which passes as root) and mypy (this anyio and mypy). gate keeps them as known;
  // each stop's verdict is still about the turn's own change.
  redAtStart: true,
  module: {
    what: 'starlette/responses.py: PlainTextResponse\'s media type "text/plan"',
    file: 'starlette/responses.py',
    replace: ['media_type = "text/plain"', 'media_type = "text/plan"'],
    expect: [/test_/],
  },
  fix: {
    what: 'starlette/responses.py: "text/plain" again, written differently (the module stays changed)',
    file: 'starlette/responses.py',
    replace: ['media_type = "text/plan"', 'media_type = "text/" + "plain"'],
  },
  test: {
    what: 'tests/test_datastructures.py: a new test with a wrong expectation',
    file: 'tests/test_datastructures.py',
    append: '\n\ndef test_gate_bench_wrong_expectation() -> None:\n    assert URL("http://a/b").path == "/cc"\n',
    expect: [/test_datastructures\.py/, /test_gate_bench_wrong_expectation/],
  },
  testFix: {
    what: 'tests/test_datastructures.py: the expectation corrected (another length: see click.mjs)',
    file: 'tests/test_datastructures.py',
    replace: ['assert URL("http://a/b").path == "/cc"', 'assert URL("http://a/b").path == "/b"'],
  },
  // Issue 39. starlette/datastructures.py is loaded by requests, responses, routing: by every test.
  comment: {
    what: 'starlette/datastructures.py: a comment inside URL.__eq__',
    file: 'starlette/datastructures.py',
    replace: ['        return str(self) == str(other)\n', '        # gate bench: a comment only\n        return str(self) == str(other)\n'],
  },
  shared: {
    what: 'starlette/datastructures.py: URL.remove_query_params removes only the first key given',
    file: 'starlette/datastructures.py',
    replace: ['        for key in keys:\n            params.pop(key, None)', '        for key in keys[:1]:\n            params.pop(key, None)'],
    expect: [/test_datastructures\.py/],
  },
  sharedFix: {
    what: 'starlette/datastructures.py: every key again, written differently',
    file: 'starlette/datastructures.py',
    replace: ['        for key in keys[:1]:\n', '        for key in list(keys):\n'],
  },
};
