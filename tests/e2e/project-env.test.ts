import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findProgram } from '../../src/runner/find-program.js';
import { canMakeVenvs, makeVenv } from '../helpers/python-venv.js';
import { runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// An agent started from a plain shell: the project's venv is not activated, and nothing on PATH
// runs the project's tools. gate finds the project's environment as the developer's shell would.

if (!canMakeVenvs() && process.env['GATE_TEST_ALLOW_MISSING_TOOLS'] !== '1') {
  throw new Error('the tools venv or its wheels are missing: run node scripts/install-tools.mjs (or set GATE_TEST_ALLOW_MISSING_TOOLS=1 to skip)');
}

// node, git, sh and timeout, and no pytest (checked below): a shell that never activated a venv.
const BARE_PATH = [...new Set([dirname(process.execPath), '/usr/bin', '/bin'])].join(delimiter);

let shared: string;
let pytestVenv: string;
let repo: TempRepo | undefined;

beforeAll(() => {
  shared = mkdtempSync(join(tmpdir(), 'gate-project-env-'));
  // One real venv with pytest for the whole file (installing pytest is the slow part).
  pytestVenv = join(shared, 'pytest-venv');
  if (canMakeVenvs()) makeVenv(pytestVenv, ['pytest==9.1.1']);
});
afterAll(() => rmSync(shared, { recursive: true, force: true }));
afterEach(() => repo?.cleanup());

const ADD = 'def add(a, b):\n    return a + b\n';
const TESTS = [
  'import os, shutil, sys',
  'from shop import add',
  '',
  'def test_add():',
  '    assert add(1, 2) == 3',
  '',
  '# What an activated venv gives a subprocess: VIRTUAL_ENV, and its python first on PATH.',
  'def test_activated():',
  "    assert os.path.realpath(os.environ['VIRTUAL_ENV']) == os.path.realpath(sys.prefix)",
  "    assert os.path.realpath(shutil.which('python')) == os.path.realpath(sys.executable)",
  '',
].join('\n');

function pythonRepo(extra: Record<string, string> = {}, gates: object[] = [{ name: 'test', preset: 'pytest' }]): TempRepo {
  const made = makeRepo({
    '.gitignore': '.venv/\n__pycache__/\n',
    'pyproject.toml': '[project]\nname = "shop"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\naddopts = "-p no:cacheprovider"\n',
    'shop.py': ADD,
    'test_shop.py': TESTS,
    'gate.config.json': `${JSON.stringify({ gates }, null, 2)}\n`,
    ...extra,
  });
  made.env['PATH'] = BARE_PATH;
  return made;
}

const status = (r: TempRepo, env: Record<string, string> = {}) => runBin(['status'], { cwd: r.dir, env: { ...r.env, ...env } });
const doctorFindings = (r: TempRepo, env: Record<string, string> = {}) =>
  (JSON.parse(runBin(['doctor', '--json'], { cwd: r.dir, env: { ...r.env, ...env } }).stdout) as { findings: Array<{ level: string; message: string }> }).findings;

function writeProgram(dir: string, name: string, script: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\n${script}\n`);
  chmodSync(join(dir, name), 0o755);
  return join(dir, name);
}

describe.skipIf(!canMakeVenvs())('the project\'s own environment, not activated', () => {
  it('the test PATH has no pytest', () => {
    expect(findProgram('pytest', shared, BARE_PATH)).toEqual({ missing: 'ENOENT' });
  });

  it('pytest only in .venv: the stop runs it, activated, and blocks the failing test; status says where pytest comes from', () => {
    repo = pythonRepo();
    symlinkSync(pytestVenv, join(repo.dir, '.venv'));
    repo.write('shop.py', 'def add(a, b):\n    return a - b\n');
    expect(status(repo).stdout).toContain(`program: ${join(repo.dir, '.venv', 'bin', 'pytest')}, from .venv (the project's environment)`);
    // Another pytest on PATH (a pyenv shim's, a global install) does not come first.
    const shim = writeProgram(join(repo.home, '.pyenv', 'shims'), 'pytest', 'exit 5');
    expect(status(repo, { PATH: `${dirname(shim)}${delimiter}${BARE_PATH}` }).stdout).toContain(`program: ${join(repo.dir, '.venv', 'bin', 'pytest')}, from .venv`);
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('FAILED test_shop.py::test_add');
    expect(blocked.stderr).not.toContain('test_activated');
    expect(blocked.stderr).not.toContain('could not start');
    // The command to rerun names the project's pytest: the agent's shell has no venv activated.
    expect(blocked.stderr).toContain('$ .venv/bin/pytest -q\n');
    repo.write('shop.py', ADD);
    expect(stop(repo).code).toBe(0);
  });

  it('$VIRTUAL_ENV, an activated venv elsewhere, wins over .venv', () => {
    // Red because of the turn's edit: the copy of the start passes (the same output there would allow the stop, issue 37).
    const gate = { name: 'which', run: ['python', '-c', "import os, sys; '# edited' in open('shop.py').read() and sys.exit('prefix ' + sys.prefix + ' VIRTUAL_ENV ' + os.environ['VIRTUAL_ENV'])"] };
    repo = pythonRepo({}, [gate]);
    makeVenv(join(repo.dir, '.venv'), []);
    const other = makeVenv(join(shared, 'activated'), []);
    repo.write('shop.py', '# edited\n');
    const env = { ...repo.env, VIRTUAL_ENV: dirname(other) };
    expect(status(repo, env).stdout).toContain(`program: ${join(other, 'python')}, from $VIRTUAL_ENV (${dirname(other)})`);
    const blocked = stop({ dir: repo.dir, env });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain(`prefix ${dirname(other)} VIRTUAL_ENV ${dirname(other)}`);
  });

  it('a package gate with the .venv at the root: the baseline run on the starting commit\'s copy finds it too, so a test already failing is not called new', () => {
    repo = pythonRepo({
      'shop.py': '',
      'test_shop.py': '',
      'pkg/shop.py': ADD,
      'pkg/test_shop.py': 'from shop import add\n\ndef test_old():\n    assert add(2, 2) == 5\n',
    }, [{ name: 'test', preset: 'pytest', cwd: 'pkg' }]);
    symlinkSync(pytestVenv, join(repo.dir, '.venv'));
    repo.write('pkg/shop.py', `# edited\n${ADD}`);
    const allowed = stop(repo);
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
  });

  it('a program in none of them: the notice names the project\'s environment among the places looked in', () => {
    repo = pythonRepo({}, [{ name: 'types', run: ['mypy', '.'] }]);
    makeVenv(join(repo.dir, '.venv'), []);
    repo.write('shop.py', '# edited\n');
    const allowed = stop(repo);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('could not start: \\"mypy\\" was not found (is it installed, and in .venv/bin, on PATH or in node_modules/.bin?)');
  });

  it('a gate whose config sets env.PATH: run with that PATH as it is, and doctor finds its program there', () => {
    const tools = join(shared, 'own-tools');
    // Red because of the turn's edit: the copy of the start passes (the same output there would allow the stop, issue 37).
    writeProgram(tools, 'house-check', 'grep -q "# edited" shop.py || exit 0; echo "house-check ran; VIRTUAL_ENV=${VIRTUAL_ENV:-unset}"; exit 1');
    repo = pythonRepo({}, [{ name: 'house', run: ['house-check'], env: { PATH: `${tools}${delimiter}${BARE_PATH}` } }]);
    makeVenv(join(repo.dir, '.venv'), []);
    const found = doctorFindings(repo).find((finding) => finding.message.startsWith('gate "house"'));
    expect(found).toEqual({ level: 'ok', message: `gate "house": house-check found (${join(tools, 'house-check')}), from the PATH its config sets` });
    repo.write('shop.py', '# edited\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('house-check ran; VIRTUAL_ENV=unset');
  });
});

describe.skipIf(!canMakeVenvs())('doctor: a Python tool from outside the project\'s environment', () => {
  it('no project environment and pytest from a pyenv shim: a warning with the path and the fix', () => {
    repo = pythonRepo();
    const shim = writeProgram(join(repo.home, '.pyenv', 'shims'), 'pytest', 'exec pytest "$@"');
    const findings = doctorFindings(repo, { PATH: `${dirname(shim)}${delimiter}${BARE_PATH}` });
    expect(findings).toContainEqual({
      level: 'warning',
      message: `gate "test": pytest comes from a pyenv shim (${shim}) and the project has no environment of its own (.venv): it may import the installed package instead of the work tree, or miss the project's dependencies. Fix: python3 -m venv .venv && .venv/bin/pip install -e . pytest (or uv sync)`,
    });
  });

  it('a .venv without pytest, and a pytest on PATH: a warning naming both, fixed by installing it there', () => {
    repo = pythonRepo();
    makeVenv(join(repo.dir, '.venv'), []);
    const findings = doctorFindings(repo, { PATH: `${join(pytestVenv, 'bin')}${delimiter}${BARE_PATH}` });
    expect(findings).toContainEqual({
      level: 'warning',
      message: `gate "test": pytest is not in the project's environment (${join(repo.dir, '.venv')}): the one on PATH (${join(pytestVenv, 'bin', 'pytest')}) runs, with its own Python and packages. Fix: .venv/bin/pip install pytest`,
    });
    symlinkSync(join(pytestVenv, 'bin', 'pytest'), join(repo.dir, '.venv', 'bin', 'pytest'));
    expect(doctorFindings(repo).filter((finding) => finding.level === 'warning')).toEqual([]);
  });
});

describe.skipIf(!canMakeVenvs())('the environment the project\'s manager keeps', () => {
  it('poetry: asked once for its environment (`poetry env info --path`), the answer kept in gate\'s state until the lock changes', () => {
    repo = pythonRepo({ 'poetry.lock': '# poetry lock\n' });
    const asked = join(repo.home, 'asked');
    const tools = join(repo.home, 'bin');
    writeProgram(tools, 'poetry', `echo "$*" >> '${asked}'\necho '${pytestVenv}'`);
    repo.env['PATH'] = `${tools}${delimiter}${BARE_PATH}`;
    repo.write('shop.py', 'def add(a, b):\n    return a - b\n');
    expect(status(repo).stdout).toContain(`program: ${join(pytestVenv, 'bin', 'pytest')}, from ${pytestVenv} (the project's environment, as poetry says)`);
    expect(stop(repo).code).toBe(2);
    repo.write('shop.py', ADD);
    expect(stop(repo).code).toBe(0);
    expect(readFileSync(asked, 'utf8')).toBe('env info --path\n');
    repo.write('poetry.lock', '# poetry lock, changed\n');
    expect(doctorFindings(repo)).toContainEqual({ level: 'ok', message: `gate "test": pytest found (${join(pytestVenv, 'bin', 'pytest')}), from ${pytestVenv} (the project's environment, as poetry says)` });
    expect(readFileSync(asked, 'utf8')).toBe('env info --path\nenv info --path\n');
  });

  it('uv: UV_PROJECT_ENVIRONMENT names the environment (no need to ask uv)', () => {
    repo = pythonRepo({ 'uv.lock': 'version = 1\n' });
    repo.write('shop.py', 'def add(a, b):\n    return a - b\n');
    const env = { ...repo.env, UV_PROJECT_ENVIRONMENT: pytestVenv };
    expect(status(repo, env).stdout).toContain(`from ${pytestVenv} (the project's environment, as uv says)`);
    const blocked = stop({ dir: repo.dir, env });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('FAILED test_shop.py::test_add');
  });
});
