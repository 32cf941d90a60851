import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import { detectPresets } from '../../src/init/detect-presets.js';
import { findFormatChecks } from '../../src/init/find-format-checks.js';
import { readRepoFacts } from '../../src/init/repo-facts.js';
import { requireTools } from '../helpers/fast-tier.js';
import { runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';

const lastStop = (r: TempRepo) => (JSON.parse(runBin(['log', '--json'], { cwd: r.dir, env: r.env }).stdout) as Array<{ gates: Array<{ name: string; tier?: string; status: string }> }>).at(-1);

// Issue 30 point 5: where a project's own scripts or CI run a formatter's check, init offers it as a
// "format" gate, and a turn that leaves code unformatted is refused with the files and their diff.
const ruffReady = requireTools('ruff');
const cargoReady = requireTools('cargo');

const dirs: string[] = [];
const repos: TempRepo[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const repo of repos.splice(0)) repo.cleanup();
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gate-format-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

const WORKFLOW = 'name: ci\non: [push]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: uv run ruff check .\n      - run: uv run ruff format --check .\n';

describe('finding the formatter checks a project runs', () => {
  it('in workflows, Makefile, justfile, tox.ini, noxfile.py, pre-commit hooks and package.json scripts', () => {
    const dir = project({
      '.github/workflows/ci.yml': WORKFLOW,
      Makefile: 'fmt:\n\tblack .\n\ncheck:\n\tblack --check src tests\n',
      justfile: 'check:\n    cargo fmt --all -- --check\n',
      'tox.ini': '[testenv:lint]\ncommands = gofmt -l .\n',
      '.pre-commit-config.yaml': 'repos:\n  - repo: https://github.com/biomejs/pre-commit\n    hooks:\n      - id: biome-check\n',
    });
    expect(findFormatChecks(dir, { 'format:check': 'prettier --check .', format: 'prettier --write .' })).toEqual([
      { tool: 'prettier', where: 'the package.json script "format:check"', command: 'prettier --check .' },
      { tool: 'black', where: 'Makefile', command: 'black --check src tests' },
      { tool: 'cargo-fmt', where: 'justfile', command: 'cargo fmt --all -- --check' },
      { tool: 'gofmt', where: 'tox.ini', command: 'gofmt -l .' },
      { tool: 'ruff-check', where: '.github/workflows/ci.yml', command: 'uv run ruff check .' },
      { tool: 'ruff', where: '.github/workflows/ci.yml', command: 'uv run ruff format --check .' },
      { tool: 'biome', where: '.pre-commit-config.yaml', command: 'hook biome-check' },
    ]);
  });

  it('not a formatter that rewrites, nor a commented-out check', () => {
    const dir = project({ Makefile: 'fmt:\n\truff format .\n\tblack src\n\tcargo fmt\n# ruff format --check .\n', 'noxfile.py': '# session.run("black", "--check")\n' });
    expect(findFormatChecks(dir, { format: 'prettier --write .' })).toEqual([]);
  });

  it('starlette: its CI runs scripts/check, which runs `ruff format --check --diff` (issue 38 point 10)', () => {
    const dir = project({
      'pyproject.toml': '[project]\nname = "starlette"\n\n[tool.ruff]\nline-length = 120\n',
      '.github/workflows/main.yml': 'jobs:\n  tests:\n    steps:\n      - name: "Install dependencies"\n        run: scripts/install\n      - name: "Run linting checks"\n        run: scripts/check\n',
      'scripts/install': '#!/bin/sh -e\nuv sync --frozen\n',
      'scripts/check': '#!/bin/sh -e\n\nexport SOURCE_FILES="starlette tests"\n\nset -x\n\n./scripts/sync-version\nuv run ruff format --check --diff $SOURCE_FILES\nuv run mypy $SOURCE_FILES\nuv run ruff check $SOURCE_FILES\n',
      'scripts/lint': '#!/bin/sh -e\nuv run ruff format $SOURCE_FILES\nuv run ruff check --fix $SOURCE_FILES\n',
    });
    expect(detectPresets(readRepoFacts(dir), loadPresets()).presets).toContainEqual({
      preset: 'ruff-format',
      gateName: 'format',
      reasons: ['scripts/check (run by .github/workflows/main.yml) runs `uv run ruff format --check --diff $SOURCE_FILES`'],
    });
  });

  it('a check script nothing names is still read; a script that formats in place is no check', () => {
    expect(findFormatChecks(project({ 'scripts/lint.sh': 'black --check .\n', 'scripts/check': 'cargo fmt --all\n' }))).toEqual([{ tool: 'black', where: 'scripts/lint.sh', command: 'black --check .' }]);
    expect(findFormatChecks(project({ Makefile: 'check:\n\t./tools/fmt-check.sh\n', 'tools/fmt-check.sh': 'prettier --check src\n' }))).toEqual([
      { tool: 'prettier', where: 'tools/fmt-check.sh (run by Makefile)', command: 'prettier --check src' },
    ]);
  });

  it('init proposes a "format" gate beside the linter, with where it was found; gofmt with no go.mod is none', () => {
    const dir = project({ 'pyproject.toml': '[project]\nname = "app"\n\n[tool.ruff]\nline-length = 100\n', '.github/workflows/ci.yml': WORKFLOW, Makefile: 'lint:\n\tgofmt -l .\n' });
    const detection = detectPresets(readRepoFacts(dir), loadPresets());
    expect(detection.presets).toEqual([
      { preset: 'ruff', gateName: 'lint', reasons: ['pyproject.toml has [tool.ruff]', '.github/workflows/ci.yml runs `uv run ruff check .`'] },
      { preset: 'ruff-format', gateName: 'format', reasons: ['.github/workflows/ci.yml runs `uv run ruff format --check .`'] },
    ]);
    expect(detection.notes.join('\n')).not.toContain('gofmt');
  });

  // Issue 42 point 5: DRF runs flake8 and isort through pre-commit, with their config in pyproject.toml.
  it('the linters a project runs through pre-commit, tox or CI become lint gates: DRF\'s flake8 and isort', () => {
    const drf = project({
      'pyproject.toml': '[project]\nname = "djangorestframework"\n\n[tool.isort]\nskip = [".tox"]\n\n[tool.flake8]\nextend-ignore = ["E501"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      '.pre-commit-config.yaml': 'repos:\n- repo: https://github.com/pre-commit/pre-commit-hooks\n  hooks:\n  - id: check-json\n- repo: https://github.com/PyCQA/isort\n  rev: 7.0.0\n  hooks:\n  - id: isort\n- repo: https://github.com/PyCQA/flake8\n  rev: 7.3.0\n  hooks:\n  - id: flake8\n    additional_dependencies:\n    - flake8-pyproject\n',
    });
    expect(detectPresets(readRepoFacts(drf), loadPresets()).presets).toEqual([
      { preset: 'pytest', gateName: 'test', reasons: ['pyproject.toml has [tool.pytest.ini_options]'] },
      { preset: 'flake8', gateName: 'lint', reasons: ['.pre-commit-config.yaml runs `hook flake8`', 'pyproject.toml has [tool.flake8]'] },
      { preset: 'isort', gateName: 'lint-isort', reasons: ['.pre-commit-config.yaml runs `hook isort`', 'pyproject.toml has [tool.isort]'] },
    ]);
    // tox and CI: a command that runs the linter counts, one that only installs it does not; isort only as a check.
    const elsewhere = project({
      'tox.ini': '[testenv:lint]\ncommands =\n    flake8 src tests\n    isort src\n; flake8 --version\n',
      '.github/workflows/lint.yml': 'jobs:\n  lint:\n    steps:\n      - run: pip install flake8 isort\n      - run: pip install -e . && python -m isort --check-only --diff .\n',
    });
    expect(findFormatChecks(elsewhere)).toEqual([
      { tool: 'flake8', where: 'tox.ini', command: 'flake8 src tests' },
      { tool: 'isort', where: '.github/workflows/lint.yml', command: 'pip install -e . && python -m isort --check-only --diff .' },
    ]);
    expect(findFormatChecks(project({ '.github/workflows/ci.yml': 'jobs:\n  a:\n    steps:\n      - run: pip install flake8 isort ruff\n' }))).toEqual([]);
  });
});

function gateRepo(files: Record<string, string>): TempRepo {
  const r = makeRepo({ ...files, '.gitignore': 'node_modules\n.ruff_cache\ntarget\n' }, { nodeModules: 'with-gate' });
  repos.push(r);
  const tools = toolEnv(r.env);
  r.env = { ...r.env, PATH: tools['PATH'] ?? '', ...(tools['RUSTUP_HOME'] ? { RUSTUP_HOME: tools['RUSTUP_HOME'] } : {}) };
  const init = runBin(['init', '--yes', '--no-check'], { cwd: r.dir, env: r.env });
  expect(init.code, init.stderr).toBe(0);
  r.commit('gate');
  return r;
}

describe.skipIf(!ruffReady)('a ruff project whose CI runs ruff format --check (real ruff)', () => {
  it('an unformatted file the turn left is refused with its diff and the command; formatted, the stop passes; an old one is not blamed', () => {
    const r = gateRepo({
      'pyproject.toml': '[project]\nname = "app"\nversion = "0"\n\n[tool.ruff]\nline-length = 100\n',
      '.github/workflows/ci.yml': WORKFLOW,
      'app.py': 'x = {"a": 1}\n',
      'old.py': 'y = {"b":2}\n',
    });
    expect(JSON.parse(readFileSync(join(r.dir, 'gate.config.json'), 'utf8')).gates).toContainEqual({ name: 'format', preset: 'ruff-format' });
    r.write('app.py', 'x = {"a":1,\n  "b":2}\n');
    const refused = stop(r);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('## format: failed');
    expect(refused.stderr).toContain('Run `ruff format app.py` to format it.');
    expect(refused.stderr).toContain('x = {"a": 1, "b": 2}');
    expect(refused.stderr).not.toContain('old.py');
    r.write('app.py', 'x = {"a": 1, "b": 2}\n');
    expect(stop(r).code).toBe(0);
  });
});

const blackReady = requireTools('black');

describe.skipIf(!blackReady)('a project whose Makefile runs black --check (real black)', () => {
  it('init adds black as the format gate; an unformatted file is refused with its diff and `black <file>`', () => {
    const r = gateRepo({ 'pyproject.toml': '[project]\nname = "app"\nversion = "0"\n', Makefile: 'check:\n\tblack --check .\n', 'app.py': 'x = 1\n' });
    expect(JSON.parse(readFileSync(join(r.dir, 'gate.config.json'), 'utf8')).gates).toContainEqual({ name: 'format', preset: 'black' });
    r.write('app.py', 'def f( a ):\n  return a\n');
    const refused = stop(r);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('+def f(a):\n+    return a');
    expect(refused.stderr).toContain(`Run \`black ${join(r.dir, 'app.py')}\` to format it.`);
  });
});

describe('a package whose format:check script runs prettier --check (real prettier)', () => {
  it('init adds prettier as the format gate; an unformatted file is refused with the file and the command', () => {
    const r = gateRepo({
      'package.json': '{\n  "name": "app",\n  "private": true,\n  "scripts": {\n    "format:check": "prettier --check ."\n  },\n  "devDependencies": {\n    "prettier": "3.10.1"\n  }\n}\n',
      'a.js': 'export const x = { a: 1 };\n',
    });
    expect(JSON.parse(readFileSync(join(r.dir, 'gate.config.json'), 'utf8')).gates).toContainEqual({ name: 'format', preset: 'prettier' });
    r.write('a.js', 'export const   x = {a:1}\n');
    const refused = stop(r);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('[warn] a.js');
    expect(refused.stderr).toMatch(/Run `npx prettier --write a\.js[^`]*` to format/);
    // Only the changed file is checked: init's own gate.config.json, not in prettier's style, is not
    // read at all (the full `prettier --check .` took 12-28 s at every stop of graphql-js).
    expect(lastStop(r)?.gates).toEqual([expect.objectContaining({ name: 'format', status: 'failed', tier: 'only what a.js touches' })]);
    expect(refused.stderr).not.toContain('gate.config.json');
    r.write('a.js', 'export const x = { a: 1 };\n');
    expect(stop(r).code).toBe(0);
    // A config change can unformat any file: the full run, which finds a.js (the turn's) and the old one.
    r.write('.prettierrc', '{ "semi": false }\n');
    const reconfigured = stop(r);
    expect(reconfigured.code, reconfigured.stderr).toBe(2);
    expect(lastStop(r)?.gates[0]?.tier).toBe('.prettierrc changed, which affects every run');
    expect(reconfigured.stderr).toContain('[warn] a.js');
    expect(reconfigured.stderr).toMatch(/Already failing before this turn \(not caused by this change\): gate\.config\.json format: not formatted\./);
  });
});

describe.skipIf(!cargoReady)('a crate whose justfile runs cargo fmt --check (real cargo fmt)', () => {
  it('init adds the format gate, and an unformatted file is refused with rustfmt\'s diff', () => {
    const r = gateRepo({
      'Cargo.toml': '[package]\nname = "fmtcheck"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      'src/lib.rs': 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n',
      justfile: 'check:\n    cargo fmt --all --check\n',
    });
    const config = JSON.parse(readFileSync(join(r.dir, 'gate.config.json'), 'utf8')) as { gates: Array<{ name: string; preset?: string }> };
    expect(config.gates).toContainEqual({ name: 'format', preset: 'cargo-fmt' });
    // Only the format gate: the crate's test and clippy runs are not this test's subject.
    r.write('gate.config.json', `${JSON.stringify({ ...config, gates: config.gates.filter((gate) => gate.name === 'format') }, null, 2)}\n`);
    r.commit('only the format gate');
    r.write('src/lib.rs', 'pub fn add(a:i32,b:i32)->i32{a+b}\n');
    const refused = stop(r);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('+pub fn add(a: i32, b: i32) -> i32 {');
    expect(refused.stderr).toContain('Run `cargo fmt`');
  });
});
