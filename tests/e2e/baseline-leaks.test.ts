import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { vitestProject } from '../helpers/fixtures.js';
import { canMakeVenvs, makeEditableVenv } from '../helpers/python-venv.js';
import { runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// A failure is called pre-existing only when the run on the starting commit's copy ran that
// commit's code. Each case here once made the copy run the edited code, so the turn's new
// failure failed "before" too and the stop was allowed.

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

if (!canMakeVenvs() && process.env['GATE_TEST_ALLOW_MISSING_TOOLS'] !== '1') {
  throw new Error('the tools venv or its wheels are missing: run node scripts/install-tools.mjs (or set GATE_TEST_ALLOW_MISSING_TOOLS=1 to skip)');
}

const ADD_TESTS = 'from shop import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_old():\n    assert add(2, 2) == 5\n';
const ADD = 'def add(a, b):\n    return a + b\n';
const ADD_BROKEN = 'def add(a, b):\n    return a - b\n';

function pythonProject(layout: 'src' | 'flat'): Record<string, string> {
  const pkg = layout === 'src' ? 'src/shop' : 'shop';
  const discovery = layout === 'flat' ? '\n[tool.setuptools]\npackages = ["shop"]\n' : '';
  return {
    '.gitignore': '.venv/\n*.egg-info/\n__pycache__/\nbuild/\n',
    'pyproject.toml': `[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "shop"\nversion = "0.1.0"\n${discovery}`,
    [`${pkg}/__init__.py`]: ADD,
    'tests/test_shop.py': ADD_TESTS,
    'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', preset: 'pytest' }] }, null, 2)}\n`,
  };
}

/** The project installed editable into its .venv, that venv's bin first on PATH (an activated venv). */
function installed(layout: 'src' | 'flat') {
  repo = makeRepo(pythonProject(layout));
  const bin = makeEditableVenv(repo.dir);
  return { repo, env: { ...repo.env, PATH: `${bin}${delimiter}${repo.env['PATH']}` } };
}

/** A .pth that puts the live src ahead of PYTHONPATH, as meson-python's editable loader does. */
function putLiveSrcFirst(project: TempRepo): void {
  const site = join(project.dir, '.venv', 'lib', readdirSync(join(project.dir, '.venv', 'lib'))[0] ?? '', 'site-packages');
  writeFileSync(join(site, 'zz_live.pth'), `import sys; sys.path.insert(0, ${JSON.stringify(join(project.dir, 'src'))})\n`);
}

describe.skipIf(!canMakeVenvs())('an editable Python install (pip install -e .)', () => {
  it.each(['src', 'flat'] as const)('%s layout: the copy imports the starting commit\'s package, so the new failure blocks and only the old one is called old', (layout) => {
    const { repo: project, env } = installed(layout);
    project.write(layout === 'src' ? 'src/shop/__init__.py' : 'shop/__init__.py', ADD_BROKEN);
    const blocked = stop({ dir: project.dir, env });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('FAILED tests/test_shop.py::test_add');
    expect(blocked.stderr).toContain('assert -1 == 3');
    expect(blocked.stderr).toContain('Already failing before this turn (not caused by this change): tests/test_shop.py::test_old.');
  });

  it('a path the environment puts ahead of the copy\'s: every failure counts as new, the report says why, and nothing is remembered', () => {
    const { repo: project, env } = installed('src');
    putLiveSrcFirst(project);
    project.write('src/shop/__init__.py', ADD_BROKEN);
    const blocked = stop({ dir: project.dir, env });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('FAILED tests/test_shop.py::test_add');
    expect(blocked.stderr).toContain('FAILED tests/test_shop.py::test_old');
    expect(blocked.stderr).not.toContain('Already failing before this turn');
    expect(blocked.stderr).toMatch(/Could not tell which failures were there before this turn \(the copy of the starting commit reached the edited work tree through Python, which opened src\/shop\/[^)]*\): each counts as new\./);
    // Only this turn's own tree is remembered, not the copy's answer for the starting commit.
    const memory = JSON.parse(readFileSync(join(project.dir, '.git', 'gate', 'failures-v2.json'), 'utf8')) as unknown[];
    expect(memory).toHaveLength(1);
  });
});

describe.skipIf(!canMakeVenvs())('evidence that needs no copy', () => {
  it('a `gate check --all` on the starting tree: its failures are known as old, even where a copy would not be trusted', () => {
    const { repo: project, env } = installed('src');
    putLiveSrcFirst(project);
    expect(runBin(['check', '--all'], { cwd: project.dir, env }).code).toBe(1);
    project.write('src/shop/__init__.py', ADD_BROKEN);
    const blocked = stop({ dir: project.dir, env });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('FAILED tests/test_shop.py::test_add');
    expect(blocked.stderr).toContain('Already failing before this turn (not caused by this change): tests/test_shop.py::test_old.');
    expect(blocked.stderr).not.toContain('Could not tell');
  });
});

describe('a tracked file that names the work tree by absolute path', () => {
  it('vitest resolving an alias to the live src/: the copy is not trusted, so both failures block', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('vitest.config.js', `export default { resolve: { alias: { '@live': ${JSON.stringify(join(repo.dir, 'src'))} } } };\n`);
    repo.write(
      'src/alias.test.ts',
      "import { expect, it } from 'vitest';\nimport { sum } from '@live/sum.js';\n\nit('adds', () => {\n  expect(sum(1, 2)).toBe(3);\n});\n\nit('was wrong already', () => {\n  expect(sum(2, 2)).toBe(5);\n});\n",
    );
    repo.commit('alias');
    repo.write('src/sum.ts', 'export function sum(a: number, b: number): number {\n  return a - b;\n}\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('was wrong already');
    expect(blocked.stderr).not.toContain('Already failing before this turn');
    expect(blocked.stderr).toContain('through files that name it by absolute path vitest.config.js');
  });
});
