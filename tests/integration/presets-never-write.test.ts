import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import { presetGate, requireTools, run } from '../helpers/fast-tier.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';

// A gate never writes the user's tree (issue 26, point 5): each preset, full run and fast tier, on a
// project configured to fix where the tool allows it, leaves every file git sees byte-identical.
// Ignored files (a tool's self-ignoring cache such as .ruff_cache, target/, __pycache__/) are not the tree.
const GITIGNORE = '__pycache__/\ntarget/\nnode_modules\n';
const PROJECTS: Record<string, { tools: string[]; files: Record<string, string> }> = {
  biome: {
    tools: [],
    files: {
      'biome.json': '{\n\t"formatter": { "enabled": true },\n\t"assist": { "enabled": true, "actions": { "source": { "organizeImports": "on" } } },\n\t"linter": { "enabled": true }\n}\n',
      'src/a.js': 'import { b } from "./b.js"\nimport { a } from "./a.js"\nvar   x = a+b\nexport { x }\n',
    },
  },
  eslint: {
    tools: [],
    files: { 'package.json': '{ "type": "module" }\n', 'eslint.config.js': 'export default [{ rules: { semi: ["error", "always"], "prefer-const": "error" } }];\n', 'a.js': 'let a = 1\nexport { a }\n' },
  },
  tsc: {
    tools: [],
    files: { 'tsconfig.json': '{ "compilerOptions": { "strict": true, "incremental": true, "noEmit": false } }\n', 'a.ts': 'export const a: number = 1;\n' },
  },
  vitest: {
    tools: [],
    files: { 'package.json': '{ "type": "module", "devDependencies": { "vitest": "*" } }\n', 'a.test.js': 'import { expect, it } from "vitest";\nit("adds", () => expect(1 + 1).toBe(2));\n' },
  },
  jest: {
    tools: [],
    files: { 'package.json': '{ "devDependencies": { "jest": "*" } }\n', 'a.test.js': 'test("snapshot", () => expect({ a: 1 }).toMatchSnapshot());\n' },
  },
  mocha: { tools: [], files: { 'package.json': '{ "devDependencies": { "mocha": "*" } }\n', 'test/a.spec.js': 'it("adds", () => {});\n' } },
  'node-test': { tools: [], files: { 'package.json': '{ "scripts": { "test": "node --test" } }\n', 'a.test.js': 'require("node:test")("adds", () => {});\n' } },
  ruff: {
    tools: ['ruff'],
    files: { 'pyproject.toml': '[tool.ruff]\nfix = true\nunsafe-fixes = true\n\n[tool.ruff.lint]\nselect = ["F", "I", "UP"]\n', 'shop.py': 'import sys\nimport os\n\n\ndef f(x):\n    return x\n' },
  },
  'ruff-format': { tools: ['ruff'], files: { 'pyproject.toml': '[tool.ruff]\nfix = true\n', 'shop.py': 'x = {"a":1,\n  "b":2}\n' } },
  flake8: { tools: ['flake8'], files: { 'setup.cfg': '[flake8]\nmax-line-length = 100\n', 'shop.py': 'import sys\nimport os\n' } },
  isort: { tools: ['isort'], files: { 'pyproject.toml': '[tool.isort]\nprofile = "black"\natomic = true\n', 'shop.py': 'import sys\nimport os\n' } },
  black: { tools: ['black'], files: { 'pyproject.toml': '[tool.black]\n', 'shop.py': 'x = {"a":1,\n  "b":2}\n' } },
  prettier: { tools: [], files: { 'package.json': '{ "devDependencies": { "prettier": "*" } }\n', 'a.js': 'const   x = {a:1}\n' } },
  pyright: { tools: [], files: { 'pyproject.toml': '[tool.pyright]\ntypeCheckingMode = "strict"\n', 'shop.py': 'def f(x):\n    return x\n' } },
  basedpyright: { tools: ['basedpyright'], files: { 'pyproject.toml': '[tool.basedpyright]\n', 'shop.py': 'def f(x):\n    return x\n' } },
  mypy: { tools: ['mypy'], files: { 'pyproject.toml': '[tool.mypy]\nstrict = true\n', 'shop.py': 'def f(x):\n    return x\n' } },
  pytest: { tools: ['pytest'], files: { 'pyproject.toml': '[tool.pytest.ini_options]\n', 'test_a.py': 'def test_a():\n    assert 1 + 1 == 2\n' } },
  'go-test': { tools: ['go'], files: { 'go.mod': 'module shop\n\ngo 1.21\n', 'a.go': 'package shop\n\nfunc A() int { return 1 }\n', 'a_test.go': 'package shop\n\nimport "testing"\n\nfunc TestA(t *testing.T) {\n\tif A() != 1 {\n\t\tt.Fatal("no")\n\t}\n}\n' } },
  'go-vet': { tools: ['go'], files: { 'go.mod': 'module shop\n\ngo 1.21\n', 'a.go': 'package shop\n\nimport "fmt"\n\nfunc A() { fmt.Printf("%d\\n", "x") }\n' } },
  // gofmt -d prints what it would change; -w (never given) is what writes.
  gofmt: { tools: ['gofmt'], files: { 'go.mod': 'module shop\n\ngo 1.21\n', 'a.go': 'package shop\nfunc A() int {return 1}\n' } },
  'cargo-test': { tools: ['cargo'], files: { 'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': 'pub fn a() -> i32 {\n    return 1;\n}\n\n#[test]\nfn t() {\n    assert_eq!(a(), 1);\n}\n' } },
  'cargo-fmt': { tools: ['cargo'], files: { 'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': 'pub fn a()->i32{1}\n' } },
  'cargo-clippy': { tools: ['cargo'], files: { 'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': 'pub fn a() -> i32 {\n    return 1;\n}\n' } },
};
// They run the project's own lint/test/typecheck tasks, which run the tools above.
const DELEGATING = new Set(['nx-lint', 'nx-test', 'nx-typecheck', 'turbo-check-types', 'turbo-lint', 'turbo-test', 'turbo-typecheck']);
// No install here (not in Debian's packages; this Go is older than it needs): its preset passes
// `--fix=false`, which overrides a config's `fix: true`, the one way it writes.
const NOT_INSTALLABLE = new Set(['golangci-lint']);

let repo: TempRepo;
afterEach(() => repo?.cleanup());

function treeHashes(r: TempRepo): Record<string, string> {
  const files = r.git('ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter(Boolean);
  return Object.fromEntries(files.map((file) => [file, createHash('sha256').update(readFileSync(join(r.dir, file))).digest('hex')]));
}

describe('every preset leaves the tree as it found it', () => {
  it('has a project here for each preset that runs a tool itself', () => {
    const ids = [...loadPresets().keys()].filter((id) => !DELEGATING.has(id) && !NOT_INSTALLABLE.has(id));
    expect(ids.sort()).toEqual(Object.keys(PROJECTS).sort());
  });

  const cases = Object.entries(PROJECTS).map(([id, project]) => ({ id, ...project }));
  it.each(cases)('$id: full run and fast tier', async ({ id, tools, files }) => {
    if (!requireTools(...tools)) return;
    repo = makeRepo({ '.gitignore': GITIGNORE, ...files }, { nodeModules: true });
    const env = { PATH: toolEnv()['PATH'] ?? '', HOME: repo.home, GOCACHE: join(repo.home, 'go-cache'), GOPATH: join(repo.home, 'go'), GOFLAGS: '-mod=mod', RUSTUP_HOME: toolEnv()['RUSTUP_HOME'] ?? '' };
    // cargo writes a missing Cargo.lock (no flag stops it but --locked, which would fail the gate): a crate keeps one.
    if (tools.includes('cargo')) {
      execFileSync('cargo', ['generate-lockfile', '--offline'], { cwd: repo.dir, env: { ...repo.env, ...env }, stdio: 'ignore' });
      repo.commit('lockfile');
    }
    const gate = presetGate(repo.dir, id, env);
    const before = treeHashes(repo);
    const changed = Object.keys(files);
    const full = await run(repo.dir, gate, changed, { ...repo.env, ...env }, true);
    const fast = await run(repo.dir, gate, changed, { ...repo.env, ...env });
    expect([full.status, fast.status], `${full.output}\n${fast.output}`).not.toContain('not-started');
    expect(treeHashes(repo)).toEqual(before);
    // Two cold runs of a real tool (tsc's full program twice): past the tier's 60 s on a loaded machine.
  }, 180_000);
});
