import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { requireTools } from '../helpers/fast-tier.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';
import { cargoEnv, goEnv } from '../helpers/workspace-fixtures.js';

// Issue 30 point 1: a change to only a lockfile or manifest (an upgraded dependency) runs every
// gate of its ecosystem, in full, with the real tools. Each project records a pass of its starting
// tree first (`gate check --all`), as a session's earlier stop does: then a failure the upgrade
// causes is known to be new, whatever a copy of the starting commit would say with the new install.

const pythonReady = requireTools('pytest', 'mypy', 'ruff');
const goReady = requireTools('go');
const cargoReady = requireTools('cargo');

let repo: TempRepo;
afterEach(() => repo?.cleanup());
const home = mkdtempSync(join(tmpdir(), 'gate-lockfiles-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const ran = (r: TempRepo) => (readStopRecords(join(r.dir, '.git', 'gate')).at(-1)?.gates ?? []).map((gate) => [gate.name, gate.status]);

/** The tools on PATH, their caches under `home`; the starting tree's pass recorded, the turn begun. */
function start(r: TempRepo, caches: Record<string, string> = {}): TempRepo {
  r.env = { ...r.env, PATH: toolEnv(r.env)['PATH'] ?? '', RUSTUP_HOME: toolEnv(r.env)['RUSTUP_HOME'] ?? '', ...caches };
  expect(runBin(['check', '--all'], { cwd: r.dir, env: r.env }).code).toBe(0);
  promptStart(r);
  return r;
}

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe.skipIf(!pythonReady)('python: uv.lock', () => {
  // `dep` stands for an installed dependency: a folder git ignores, on pytest's and mypy's path.
  const lock = (version: string) => `version = 1\nrequires-python = ">=3.9"\n\n[[package]]\nname = "dep"\nversion = "${version}"\nsource = { registry = "https://pypi.org/simple" }\n`;
  const project = () =>
    makeRepo({
      '.gitignore': 'vendor/\n__pycache__/\n',
      'pyproject.toml': '[project]\nname = "shop"\nversion = "0.1.0"\ndependencies = ["dep"]\n\n[tool.pytest.ini_options]\npythonpath = [".", "vendor"]\n\n[tool.mypy]\nstrict = true\nmypy_path = "vendor"\n\n[tool.ruff.lint]\nselect = ["F"]\n',
      'uv.lock': lock('1.0.0'),
      'vendor/dep.py': 'def helper() -> int:\n    return 1\n',
      'shop/__init__.py': 'from dep import helper\n\n\ndef total() -> int:\n    return helper() + 1\n',
      'tests/test_shop.py': 'from shop import total\n\n\ndef test_total() -> None:\n    assert total() == 2\n',
      'tests/conftest.py': 'from shop import total\n\n\ndef pytest_configure() -> None:\n    assert total() == 2\n',
      'gate.config.json': json({ gates: [{ name: 'test', preset: 'pytest' }, { name: 'typecheck', preset: 'mypy' }, { name: 'lint', preset: 'ruff' }] }),
    });

  it('a lock upgrade that breaks nothing runs pytest, mypy and ruff in full, and they pass', () => {
    repo = start(project());
    repo.write('uv.lock', lock('1.0.1'));
    const status = JSON.parse(runBin(['status', '--json'], { cwd: repo.dir, env: repo.env }).stdout) as { gates: Array<{ reason: string; fast: boolean }> };
    expect(status.gates.map((gate) => [gate.reason, gate.fast])).toEqual(Array(3).fill(['uv.lock changed, a lockfile or manifest (the full run)', false]));
    expect(stop(repo).code).toBe(0);
    expect(ran(repo)).toEqual([['test', 'passed'], ['typecheck', 'passed'], ['lint', 'passed']]);
  });

  it('a lock upgrade whose new version drops a name refuses the stop: pytest dies loading conftest.py, mypy sees it', () => {
    repo = start(project());
    repo.write('vendor/dep.py', 'def assist() -> int:\n    return 1\n');
    repo.write('uv.lock', lock('2.0.0'));
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    // The runner's own crash is the report (issue 30 point 2): the error, and the user's frames that led to it.
    expect(blocked.stderr).toContain(`ImportError while loading conftest '${repo.dir}/tests/conftest.py'.`);
    expect(blocked.stderr).toContain('shop/__init__.py:1: in <module>\n    from dep import helper\n');
    expect(blocked.stderr).toContain("E   ImportError: cannot import name 'helper' from 'dep'");
    expect(blocked.stderr).toContain('shop/__init__.py:1: error: Module "dep" has no attribute "helper"');
  });
});

describe('node: package-lock.json', () => {
  // node_modules as npm leaves it: the tools from this checkout, and `dep`, the locked dependency.
  const dep = (version: string, returns: string, type: string) => ({
    'package.json': json({ name: 'dep', version, type: 'module', main: 'index.js', types: 'index.d.ts' }),
    'index.js': `export const helper = () => ${returns};\n`,
    'index.d.ts': `export declare const helper: () => ${type};\n`,
  });
  const lock = (version: string) => json({ name: 'shop', lockfileVersion: 3, requires: true, packages: { '': { name: 'shop', dependencies: { dep: `^${version}` } }, 'node_modules/dep': { version } } });
  const install = (r: TempRepo, files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) writeFile(join(r.dir, 'node_modules', 'dep', name), text);
  };
  function project(): TempRepo {
    const r = makeRepo({
      '.gitignore': 'node_modules\n',
      'package.json': json({ name: 'shop', private: true, type: 'module', dependencies: { dep: '^1.0.0' } }),
      'package-lock.json': lock('1.0.0'),
      'tsconfig.json': json({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, target: 'ES2022', types: [] }, include: ['src'] }),
      'eslint.config.js': 'export default [{ files: ["**/*.js"], rules: { "no-unused-vars": "error" } }];\n',
      'src/total.ts': "import { helper } from 'dep';\n\nexport const total = (): number => helper() + 1;\n",
      'src/total.test.ts': "import { expect, it } from 'vitest';\nimport { total } from './total.js';\n\nit('adds one', () => {\n  expect(total()).toBe(2);\n});\n",
      'src/format.js': 'export const format = (n) => `${n} items`;\n',
      'gate.config.json': json({ gates: [{ name: 'test', preset: 'vitest' }, { name: 'typecheck', preset: 'tsc' }, { name: 'lint', preset: 'eslint' }] }),
    });
    mkdirSync(join(r.dir, 'node_modules', '.bin'), { recursive: true });
    for (const tool of ['vitest', 'typescript', 'eslint']) symlinkSync(join(PROJECT_ROOT, 'node_modules', tool), join(r.dir, 'node_modules', tool));
    for (const bin of ['vitest', 'tsc', 'eslint']) symlinkSync(join(PROJECT_ROOT, 'node_modules', '.bin', bin), join(r.dir, 'node_modules', '.bin', bin));
    install(r, dep('1.0.0', '1', 'number'));
    return r;
  }

  it('a lock-only change runs vitest, tsc and eslint in full, and they pass', () => {
    repo = start(project());
    repo.write('package-lock.json', lock('1.0.1'));
    expect(stop(repo).code).toBe(0);
    expect(ran(repo)).toEqual([['test', 'passed'], ['typecheck', 'passed'], ['lint', 'passed']]);
  });

  it('an upgrade whose new version returns a string refuses the stop: the test and the type check fail', () => {
    repo = start(project());
    install(repo, dep('2.0.0', "'1'", 'string'));
    repo.write('package-lock.json', lock('2.0.0'));
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/expected '11' to be 2/);
    expect(blocked.stderr).toMatch(/src\/total\.ts\(3,\d+\): error TS2322/);
  });
});

describe.skipIf(!goReady)('go: go.work', () => {
  // A module that needs another through go.work: the workspace file is what resolves it.
  const project = () =>
    makeRepo({
      'go.work': 'go 1.19\n\nuse (\n\t.\n\t./lib\n)\n',
      'go.mod': 'module example.com/app\n\ngo 1.19\n\nrequire example.com/lib v0.0.0\n',
      'app.go': 'package app\n\nimport "example.com/lib"\n\n// Total adds one to the library\'s base.\nfunc Total() int {\n\treturn lib.Base() + 1\n}\n',
      'app_test.go': 'package app\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif Total() != 2 {\n\t\tt.Fatal("wrong total")\n\t}\n}\n',
      'lib/go.mod': 'module example.com/lib\n\ngo 1.19\n',
      'lib/lib.go': 'package lib\n\n// Base is where totals start.\nfunc Base() int {\n\treturn 1\n}\n',
      'gate.config.json': json({ gates: [{ name: 'test', preset: 'go-test' }, { name: 'vet', preset: 'go-vet' }] }),
    });
  const env = () => goEnv(join(home, 'go'));

  it('a go.work edit that changes nothing runs go test and go vet in full, and they pass', () => {
    repo = start(project(), env());
    repo.write('go.work', 'go 1.19\n\n// The app and its library, developed together.\nuse (\n\t.\n\t./lib\n)\n');
    expect(stop(repo).code).toBe(0);
    expect(ran(repo)).toEqual([['test', 'passed'], ['vet', 'passed']]);
  });

  it('a go.work that drops the library refuses the stop: the app no longer builds', () => {
    repo = start(project(), env());
    repo.write('go.work', 'go 1.19\n\nuse .\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('example.com/lib');
  });
});

describe.skipIf(!cargoReady)('rust: Cargo.lock and Cargo.toml', () => {
  const manifest = (edition: string) => `[package]\nname = "calc"\nversion = "0.1.0"\nedition = "${edition}"\n`;
  const lock = (version: number) => `# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = ${version}\n\n[[package]]\nname = "calc"\nversion = "0.1.0"\n`;
  const project = () =>
    makeRepo({
      '.gitignore': 'target/\n',
      'Cargo.toml': manifest('2021'),
      'Cargo.lock': lock(3),
      'src/lib.rs': 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub async fn ready() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n',
      'gate.config.json': json({ gates: [{ name: 'test', preset: 'cargo-test' }] }),
    });
  const env = () => cargoEnv(join(home, 'cargo'));

  it('a lock-only change runs cargo test in full, and it passes', () => {
    repo = start(project(), env());
    repo.write('Cargo.lock', lock(4));
    expect(stop(repo).code).toBe(0);
    expect(ran(repo)).toEqual([['test', 'passed']]);
  });

  it('a manifest that moves to edition 2015 refuses the stop: async fn no longer compiles', () => {
    repo = start(project(), env());
    repo.write('Cargo.toml', manifest('2015'));
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('`async fn` is not permitted in Rust 2015');
  });
});
