import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build, presetGate, requireTools, run } from '../helpers/fast-tier.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';
import { selectGates } from '../../src/plan/select-gates.js';

// Each preset on a project whose own config narrows what the tool checks: the full run and the fast
// tier both check what the project's own command checks, so a finding outside that scope blocks nothing.
const python = requireTools('mypy', 'ruff', 'pytest');
const pythonLinters = requireTools('flake8', 'isort');

let repo: TempRepo;
afterEach(() => repo?.cleanup());

function setUp(files: Record<string, string>, preset: string, nodeModules = false) {
  repo = makeRepo(files, { nodeModules });
  const env = { PATH: toolEnv()['PATH'] ?? '', PYTHONDONTWRITEBYTECODE: '1' };
  return { gate: presetGate(repo.dir, preset, env), env: { ...repo.env, ...env } };
}

async function both(files: Record<string, string>, preset: string, changed: string[], nodeModules = false) {
  const { gate, env } = setUp(files, preset, nodeModules);
  const full = await run(repo.dir, gate, changed, env, true);
  const fast = await run(repo.dir, gate, changed, env);
  return { gate, full, fast };
}

// Unannotated on purpose: `mypy --strict .` fails it; the project's own `mypy` never looks at it.
const UNTYPED = 'def helper(x):\n    return x\n';
const TYPED = 'def price(cents: int) -> float:\n    return cents / 100\n';

describe.skipIf(!python)('mypy: what the config names, not the whole folder', () => {
  it.each([
    ['pyproject.toml', '[tool.mypy]\nstrict = true\nfiles = ["src"]\n'],
    ['mypy.ini', '[mypy]\nstrict = True\nfiles = src\n'],
    ['setup.cfg', '[metadata]\nname = shop\n\n[mypy]\nstrict = True\nfiles = src\n'],
  ])('%s naming files: plain mypy, full run and fast tier pass', async (config, text) => {
    const { gate, full, fast } = await both({ [config]: text, 'src/shop.py': TYPED, 'tests/test_shop.py': UNTYPED }, 'mypy', ['tests/test_shop.py']);
    expect((await build(repo.dir, gate, [], true)).argv).toEqual(['mypy']);
    expect((await build(repo.dir, gate, ['tests/test_shop.py'])).argv).toEqual(['mypy', '--cache-dir', expect.stringContaining('cache')]);
    expect(full.status).toBe('passed');
    expect(fast.status).toBe('passed');
  });

  it('still fails for an error inside the files the config names', async () => {
    const { full, fast } = await both({ 'pyproject.toml': '[tool.mypy]\nstrict = true\nfiles = ["src"]\n', 'src/shop.py': UNTYPED }, 'mypy', ['src/shop.py']);
    expect(full.status).toBe('failed');
    expect(fast.status).toBe('failed');
  });

  it('checks the whole folder when the config names nothing, and mypy.ini wins over pyproject.toml as in mypy', async () => {
    const { gate, full } = await both({ 'mypy.ini': '[mypy]\nstrict = True\n', 'pyproject.toml': '[tool.mypy]\nfiles = ["src"]\n', 'src/shop.py': TYPED, 'tests/test_shop.py': UNTYPED }, 'mypy', []);
    expect((await build(repo.dir, gate, [], true)).argv).toEqual(['mypy', '.']);
    expect(full.status).toBe('failed');
  });
});

describe.skipIf(!python)('ruff, pytest: excludes and testpaths (right before issue 26; these document it)', () => {
  it('ruff: an excluded file the turn changed is not linted, full run or fast tier', async () => {
    const files = { 'pyproject.toml': '[tool.ruff]\nextend-exclude = ["legacy"]\n\n[tool.ruff.lint]\nselect = ["F"]\n', 'legacy/old.py': 'import os\n', 'shop.py': TYPED };
    const { full, fast } = await both(files, 'ruff', ['legacy/old.py']);
    expect(full.status).toBe('passed');
    expect(fast.status).toBe('passed');
  });

  it('pytest: a failing test outside testpaths is not run, full run or fast tier', async () => {
    const files = {
      'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      'tests/test_ok.py': 'def test_ok():\n    assert True\n',
      'examples/test_demo.py': 'def test_demo():\n    assert False\n',
    };
    const { full, fast } = await both(files, 'pytest', ['examples/test_demo.py']);
    expect(full.status).toBe('passed');
    expect(fast.status).not.toBe('failed');
  });
});

describe('tsc, eslint, biome: the project\'s tsconfig, flat config ignores and files.includes (right before issue 26)', () => {
  it('tsc: a file outside tsconfig include is not checked, full run or fast tier', async () => {
    const files = { 'tsconfig.json': '{ "compilerOptions": { "strict": true, "incremental": true }, "include": ["src"] }\n', 'src/a.ts': 'export const a: number = 1;\n', 'scratch/b.ts': 'export const b: string = 2;\n' };
    const { full, fast } = await both(files, 'tsc', ['scratch/b.ts'], true);
    expect(full.status).toBe('passed');
    expect(fast.status).toBe('passed');
  });

  it('eslint: a file the flat config ignores, passed by the fast tier, is a warning and no failure', async () => {
    const files = {
      'package.json': '{ "type": "module" }\n',
      'eslint.config.js': 'export default [{ ignores: ["legacy/**"] }, { rules: { "no-unused-vars": "error" } }];\n',
      'legacy/old.js': 'const unused = 1;\n',
      'src/a.js': 'export const a = 1;\n',
    };
    const { full, fast } = await both(files, 'eslint', ['legacy/old.js'], true);
    expect(full.status).toBe('passed');
    expect(fast.status).toBe('passed');
  });

  it('biome: a file outside files.includes, passed by the fast tier, is skipped', async () => {
    const files = {
      'biome.json': '{\n\t"files": { "includes": ["src/**", "!src/generated/**"] }\n}\n',
      'src/generated/g.js': 'var a   =   1\n',
      'src/a.js': 'export const a = 1;\n',
    };
    const { full, fast } = await both(files, 'biome', ['src/generated/g.js'], true);
    expect(full.status).toBe('passed');
    expect(fast.status).toBe('passed');
  });
});

describe.skipIf(!python)('pytest: files the tests read that are not Python (issue 42)', () => {
  const project = {
    'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    'shop/__init__.py': '',
    'shop/render.py': 'from pathlib import Path\n\n\ndef page(error):\n    text = (Path(__file__).parent / "templates" / "input.html").read_text()\n    return text.replace("{{ error }}", error)\n',
    'shop/templates/input.html': '<span class="help-block">{{ error }}</span>\n',
    'tests/test_render.py': 'from shop.render import page\n\n\ndef test_error_markup():\n    assert page("too long") == \'<span class="help-block">too long</span>\\n\'\n',
    'docs/index.md': '# Shop\n',
  };

  it('a template edit triggers the gate and its run (the whole suite: tests may read it as data) fails; documentation and CI files do not trigger it', async () => {
    const { gate, env } = setUp(project, 'pytest');
    const triggered = (path: string) => selectGates([gate], { paths: [path], all: false }, repo.dir, new Map([[repo.dir, { paths: [path] }]]), new Set(), undefined)[0]?.run;
    for (const path of ['shop/templates/input.html', 'shop/static/app.css', 'shop/locale/de/LC_MESSAGES/django.po', 'tests/fixtures/users.json', 'tests/__snapshots__/test_render.ambr', 'tests/data/schema.sql']) expect(triggered(path), path).toBe(true);
    for (const path of ['README.md', 'docs/page.html', 'doc/guide.txt', '.github/workflows/ci.yml', 'LICENSE', 'licenses/bootstrap.txt', 'mkdocs.yml', 'shop/__pycache__/render.cpython-311.pyc']) expect(triggered(path), path).toBe(false);
    repo.write('shop/templates/input.html', '<span class="help-block error">{{ error }}</span>\n');
    expect(await build(repo.dir, gate, ['shop/templates/input.html'])).toMatchObject({ argv: ['pytest', '-q'], why: "1 of 1 test files: every one imports the change, shop/templates/input.html counted as its package's modules and those naming it" });
    const result = await run(repo.dir, gate, ['shop/templates/input.html'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/FAILED tests\/test_render\.py::test_error_markup/);
  });
});

describe.skipIf(!pythonLinters)('flake8, isort: the project\'s config, never its environment (issue 42)', () => {
  // An unignored .venv full of other people's code: neither linter reads it, full run or fast tier.
  const venv = { '.venv/pyvenv.cfg': 'home = /usr/bin\n', '.venv/lib/python3.12/site-packages/dep/__init__.py': 'import sys,os\nx=1;y=2\n' };

  it('flake8: its config (setup.cfg) applies; a finding in the changed file blocks, the venv is never linted', async () => {
    const files = { ...venv, 'setup.cfg': '[flake8]\nextend-ignore = E501\n', 'shop.py': 'def price(cents):\n    return cents / 100  # a comment long enough to pass the default line length of seventy-nine\n' };
    const { gate, full, fast } = await both(files, 'flake8', ['shop.py']);
    expect((await build(repo.dir, gate, ['shop.py'])).argv).toEqual(['flake8', '--extend-exclude', '.venv,venv,node_modules', 'shop.py']);
    expect(full.status).toBe('passed');
    expect(fast.status).toBe('passed');
    repo.write('shop.py', 'import os\n\n\ndef price(cents):\n    return cents / 100\n');
    const broken = await run(repo.dir, gate, ['shop.py'], { ...repo.env, PATH: toolEnv()['PATH'] ?? '' });
    expect(broken.status).toBe('failed');
    expect(broken.output).toMatch(/shop\.py:1:1: F401 'os' imported but unused/);
  });

  it('isort: its config (profile) applies; unsorted imports in the changed file block, the venv is never read', async () => {
    const files = { ...venv, 'pyproject.toml': '[tool.isort]\nprofile = "black"\nskip = [".tox"]\n', 'shop.py': 'import os\nimport sys\n' };
    const { full, fast } = await both(files, 'isort', ['shop.py']);
    expect(full.status).toBe('passed');
    expect(fast.status).toBe('passed');
    repo.write('shop.py', 'import sys\nimport os\n');
    const gate = presetGate(repo.dir, 'isort', { PATH: toolEnv()['PATH'] ?? '' });
    const broken = await run(repo.dir, gate, ['shop.py'], { ...repo.env, PATH: toolEnv()['PATH'] ?? '' });
    expect(broken.status).toBe('failed');
    expect(broken.output).toMatch(/shop\.py Imports are incorrectly sorted/);
  });
});

// graphql-js's eslint reads other files (import/*, typed rules): it ran in full, uncached, at every
// code stop (29-115 s; its tests: 12 s). Now it runs from eslint's cache, whose entries gate drops
// for the files changed since the last run and every file that imports one of them.
describe("eslint with rules that read other files: the whole project from eslint's own cache", () => {
  // A real rule that reads another file: a named import must be exported by the module it names.
  // It logs each file it lints, so the test sees what eslint linted and what came from its cache.
  const CONFIG = `import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
const named = {
  create(context) {
    appendFileSync('linted.log', context.filename.slice(context.cwd.length + 1) + '\\n');
    return {
      ImportDeclaration(node) {
        if (!node.source.value.startsWith('.')) return;
        const text = readFileSync(resolve(dirname(context.filename), node.source.value), 'utf8');
        for (const spec of node.specifiers) {
          if (spec.type === 'ImportSpecifier' && !new RegExp('export const ' + spec.imported.name + '\\\\b').test(text)) context.report({ node: spec, message: spec.imported.name + ' is not exported by ' + node.source.value });
        }
      },
    };
  },
};
export default [{ ignores: ['eslint.config.js'] }, { plugins: { import: { rules: { named } } }, rules: { 'import/named': 'error', 'no-debugger': 'error'RULES } }];
`;
  const files = (rules = '') => ({
    '.gitignore': 'node_modules\nlinted.log\n',
    'package.json': '{ "type": "module" }\n',
    'eslint.config.js': CONFIG.replace('RULES', rules),
    'src/price.js': '// prices\nexport const price = 1;\n',
    'src/cart.js': "import { price } from './price.js';\nexport const total = price * 2;\n",
    'src/log.js': "console.log('ready');\n",
  });
  const linted = () => {
    const text = readFileSync(join(repo.dir, 'linted.log'), 'utf8');
    writeFileSync(join(repo.dir, 'linted.log'), '');
    return text.split('\n').filter(Boolean).sort();
  };

  it('lints again only what changed and what imports it, never hides a new error, and a config change counts', async () => {
    const { gate, env } = setUp(files(), 'eslint', true);
    writeFileSync(join(repo.dir, 'linted.log'), '');
    const stop = async (changed: string[]) => ({ command: await build(repo.dir, gate, changed), result: await run(repo.dir, gate, changed, env) });

    repo.write('src/log.js', "console.log('ready!');\n");
    const first = await stop(['src/log.js']);
    expect(first.command).toMatchObject({ fast: true, why: "eslint.config.js mentions import/: rules that read other files: the whole project, every file linted again (no cache gate can trust yet)" });
    expect(first.command.argv.slice(0, 7)).toEqual(['eslint', '--cache', '--cache-strategy', 'content', '--cache-location', expect.stringMatching(/cache\/check\/eslintcache$/), '.']);
    expect(first.result.status).toBe('passed');
    expect(linted()).toEqual(['src/cart.js', 'src/log.js', 'src/price.js']);

    repo.write('src/price.js', '// prices, in cents\nexport const price = 1;\n');
    const comment = await stop(['src/log.js', 'src/price.js']);
    expect(comment.command.why).toMatch(/: the whole project, 1 file linted again \(changed, or importing a changed file\), the rest from eslint's cache$/);
    expect(comment.result.status).toBe('passed');
    expect(linted()).toEqual(['src/price.js']);

    // The export renamed: src/cart.js, unchanged, is wrong now. eslint's cache alone would serve its old, clean result.
    repo.write('src/price.js', '// prices, in cents\nexport const cents = 1;\n');
    const renamed = await stop(['src/log.js', 'src/price.js']);
    expect(renamed.result.status).toBe('failed');
    expect(renamed.result.output).toContain('price is not exported by ./price.js');
    expect(linted()).toEqual(['src/cart.js', 'src/price.js']);

    repo.write('src/price.js', '// prices, in cents\nexport const price = 1;\n');
    repo.write('src/log.js', "console.log('ready!');\ndebugger;\n");
    const debuggerAdded = await stop(['src/log.js', 'src/price.js']);
    expect(debuggerAdded.result.status).toBe('failed');
    expect(debuggerAdded.result.output).toContain("Unexpected 'debugger' statement");
    expect(debuggerAdded.result.output).not.toContain('is not exported');

    // eslint's cache keys each entry on the config too: a rule turned on reaches the unchanged files it serves from the cache.
    const cached = ['eslint', '--cache', '--cache-strategy', 'content', '--cache-location', join(repo.dir, 'own-cache'), 'src/cart.js'];
    expect(spawnSync(join(PROJECT_ROOT, 'node_modules/.bin/eslint'), cached.slice(1), { cwd: repo.dir, env, encoding: 'utf8' }).status).toBe(0);
    repo.write('eslint.config.js', files(", 'prefer-const': 'error', 'no-magic-numbers': 'error'")['eslint.config.js']);
    const after = spawnSync(join(PROJECT_ROOT, 'node_modules/.bin/eslint'), cached.slice(1), { cwd: repo.dir, env, encoding: 'utf8' });
    expect(after.status).toBe(1);
    expect(after.stdout).toContain('No magic number: 2');
    // gate's own stop: a changed eslint config is the full run (eslint .), and the cache is dropped before its next cached run.
    expect((await build(repo.dir, gate, ['eslint.config.js'])).argv).toEqual(['eslint', '.']);
    linted();
    repo.write('src/log.js', "console.log('ready');\n");
    const next = await stop(['src/log.js', 'src/price.js']);
    expect(next.command.why).toMatch(/every file linted again/);
    expect(next.result.output).toContain('No magic number: 2');
  });
});
