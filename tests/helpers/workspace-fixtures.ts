import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { makeRepo, type TempRepo } from './temp-repo.js';

// Realistic workspaces for the monorepo tests: real packages with real tests that pass, committed.
// The JS ones are laid out as npm or pnpm would install them (node_modules symlinks), without
// running either; the Go and cargo ones build offline (no module or crate from a registry).

export interface WorkspaceOptions {
  /** A gate.config.json in each package (one `test` gate; go and cargo name their tool's filter) and one at the root naming the workspace kind. */
  gateConfigs?: boolean;
}

interface JsPackage {
  dir: string;
  /** Dirs of the workspace packages it imports. */
  deps: string[];
  source: string;
  test: string;
}

const TEST_HEAD = "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n";

const SHARED_SOURCE = `export function formatPrice(cents) {
  return \`$\${(cents / 100).toFixed(2)}\`;
}

export function pluralize(count, word) {
  return \`\${count} \${count === 1 ? word : \`\${word}s\`}\`;
}
`;

const SHARED_TEST = `${TEST_HEAD}import { formatPrice, pluralize } from '../src/index.js';

test('formats cents as dollars', () => assert.equal(formatPrice(150), '$1.50'));
test('pluralizes a count', () => assert.equal(pluralize(2, 'item'), '2 items'));
`;

// apps/web's test asserts on the line that declares it, so the reported test and assertion share a file:line.
const WEB_TEST_NAME = 'renders the cart with its count and total';
const WEB_TEST = `${TEST_HEAD}import { renderCart } from '../src/cart.js';

const items = [{ name: 'Tea', cents: 150 }, { name: 'Cake', cents: 325 }];

test('${WEB_TEST_NAME}', () => assert.equal(renderCart(items), 'Tea: $1.50\\nCake: $3.25\\n2 items, $4.75'));
`;
const WEB_TEST_LINE = WEB_TEST.split('\n').findIndex((line) => line.startsWith('test(')) + 1;

const leaf = (dir: string, source: string, test: string): JsPackage => ({ dir, deps: [], source, test: `${TEST_HEAD}import * as leaf from '../src/index.js';\n\n${test}\n` });

/** The 12 packages: shared ← utils; web, api, admin on top; six leaves and a slow one nothing depends on. */
export const JS_PACKAGES: readonly JsPackage[] = [
  { dir: 'packages/shared', deps: [], source: SHARED_SOURCE, test: SHARED_TEST },
  {
    dir: 'packages/utils',
    deps: ['packages/shared'],
    source: "import { formatPrice } from '@acme/shared';\n\nexport function priceTag(item) {\n  return `${item.name}: ${formatPrice(item.cents)}`;\n}\n",
    test: `${TEST_HEAD}import { priceTag } from '../src/index.js';\n\ntest('tags an item with its price', () => assert.equal(priceTag({ name: 'Tea', cents: 150 }), 'Tea: $1.50'));\n`,
  },
  {
    dir: 'apps/web',
    deps: ['packages/shared', 'packages/utils'],
    source:
      "import { formatPrice, pluralize } from '@acme/shared';\nimport { priceTag } from '@acme/utils';\n\nexport function renderCart(items) {\n  const total = items.reduce((sum, item) => sum + item.cents, 0);\n  return [...items.map(priceTag), `${pluralize(items.length, 'item')}, ${formatPrice(total)}`].join('\\n');\n}\n",
    test: WEB_TEST,
  },
  {
    dir: 'apps/api',
    deps: ['packages/shared'],
    source: "import { formatPrice } from '@acme/shared';\n\nexport function totalResponse(items) {\n  const cents = items.reduce((sum, item) => sum + item.cents, 0);\n  return { count: items.length, total: formatPrice(cents) };\n}\n",
    test: `${TEST_HEAD}import { totalResponse } from '../src/index.js';\n\ntest('answers with the count and total', () => assert.deepEqual(totalResponse([{ cents: 100 }, { cents: 250 }]), { count: 2, total: '$3.50' }));\n`,
  },
  {
    dir: 'apps/admin',
    deps: ['packages/utils'],
    source: "import { priceTag } from '@acme/utils';\n\nexport function listing(items) {\n  return items.map(priceTag).sort();\n}\n",
    test: `${TEST_HEAD}import { listing } from '../src/index.js';\n\ntest('lists items by name', () => assert.deepEqual(listing([{ name: 'Tea', cents: 150 }, { name: 'Cake', cents: 325 }]), ['Cake: $3.25', 'Tea: $1.50']));\n`,
  },
  leaf('packages/leaf-a', 'export function clamp(value, min, max) {\n  return Math.min(max, Math.max(min, value));\n}\n', "test('clamps', () => assert.equal(leaf.clamp(12, 0, 10), 10));"),
  leaf('packages/leaf-b', 'export function capitalize(word) {\n  return word.charAt(0).toUpperCase() + word.slice(1);\n}\n', "test('capitalizes', () => assert.equal(leaf.capitalize('tea'), 'Tea'));"),
  leaf('packages/leaf-c', 'export function chunk(list, size) {\n  const chunks = [];\n  for (let i = 0; i < list.length; i += size) chunks.push(list.slice(i, i + size));\n  return chunks;\n}\n', "test('chunks', () => assert.deepEqual(leaf.chunk([1, 2, 3], 2), [[1, 2], [3]]));"),
  leaf('packages/leaf-d', 'export function unique(list) {\n  return [...new Set(list)];\n}\n', "test('dedupes', () => assert.deepEqual(leaf.unique([1, 1, 2]), [1, 2]));"),
  leaf('packages/leaf-e', 'export function range(count) {\n  return Array.from({ length: count }, (_, i) => i);\n}\n', "test('ranges', () => assert.deepEqual(leaf.range(3), [0, 1, 2]));"),
  leaf('packages/leaf-f', "export function initials(name) {\n  return name.split(' ').map((part) => part.charAt(0)).join('');\n}\n", "test('takes initials', () => assert.equal(leaf.initials('Ada Lovelace'), 'AL'));"),
  {
    dir: 'packages/slow',
    deps: [],
    source: 'export function settle(ms) {\n  return new Promise((resolve) => setTimeout(resolve, ms));\n}\n',
    test: `${TEST_HEAD}import { settle } from '../src/index.js';\n\ntest('settles after 20 seconds', async () => {\n  await settle(20_000);\n  assert.ok(true);\n});\n`,
  },
];

export const SLOW_TEST_SECONDS = 20;

const nameOf = (dir: string) => `@acme/${dir.split('/').at(-1)}`;
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const sourceFile = (dir: string) => (dir === 'apps/web' ? 'src/cart.js' : 'src/index.js');
const testFile = (dir: string) => (dir === 'apps/web' ? 'test/cart.test.js' : 'test/index.test.js');

function jsFiles(kind: 'npm' | 'pnpm', options: WorkspaceOptions): Record<string, string> {
  const spec = kind === 'npm' ? '*' : 'workspace:*';
  const files: Record<string, string> = { '.gitignore': 'node_modules/\n', 'README.md': '# acme\n\nThe acme shop, one package per folder.\n' };
  for (const pkg of JS_PACKAGES) {
    const manifest = {
      name: nameOf(pkg.dir),
      version: '1.0.0',
      private: true,
      type: 'module',
      exports: `./${sourceFile(pkg.dir)}`,
      scripts: { test: 'node --test' },
      ...(pkg.deps.length > 0 ? { dependencies: Object.fromEntries(pkg.deps.map((dep) => [nameOf(dep), spec])) } : {}),
    };
    files[`${pkg.dir}/package.json`] = json(manifest);
    files[`${pkg.dir}/${sourceFile(pkg.dir)}`] = pkg.source;
    files[`${pkg.dir}/${testFile(pkg.dir)}`] = pkg.test;
    if (options.gateConfigs) files[`${pkg.dir}/gate.config.json`] = json({ gates: [{ name: 'test', run: ['node', '--test'], filter: 'node-test' }] });
  }
  if (options.gateConfigs) files['gate.config.json'] = json({ workspaces: kind });
  const root = { name: 'acme', version: '1.0.0', private: true, type: 'module' };
  if (kind === 'npm') {
    files['package.json'] = json({ ...root, workspaces: ['packages/*', 'apps/*'], scripts: { test: 'npm test --workspaces' } });
    files['package-lock.json'] = json(npmLockfile());
  } else {
    files['package.json'] = json({ ...root, scripts: { test: 'pnpm -r test' }, packageManager: 'pnpm@9.15.0' });
    files['pnpm-workspace.yaml'] = "packages:\n  - 'packages/*'\n  - 'apps/*'\n";
    files['pnpm-lock.yaml'] = pnpmLockfile();
  }
  return files;
}

/** A stand-in with the shape `npm install` writes for linked workspaces (lockfileVersion 3). */
function npmLockfile() {
  const packages: Record<string, unknown> = { '': { name: 'acme', version: '1.0.0', workspaces: ['packages/*', 'apps/*'] } };
  for (const pkg of JS_PACKAGES) {
    packages[pkg.dir] = { name: nameOf(pkg.dir), version: '1.0.0', ...(pkg.deps.length > 0 ? { dependencies: Object.fromEntries(pkg.deps.map((dep) => [nameOf(dep), '*'])) } : {}) };
    packages[`node_modules/${nameOf(pkg.dir)}`] = { resolved: pkg.dir, link: true };
  }
  return { name: 'acme', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

/** A stand-in with the shape pnpm 9 writes (lockfileVersion '9.0'): one importer per package. */
function pnpmLockfile(): string {
  const lines = ["lockfileVersion: '9.0'", '', 'settings:', '  autoInstallPeers: true', '  excludeLinksFromLockfile: false', '', 'importers:', '', '  .: {}', ''];
  for (const pkg of [...JS_PACKAGES].sort((a, b) => a.dir.localeCompare(b.dir))) {
    if (pkg.deps.length === 0) {
      lines.push(`  ${pkg.dir}: {}`, '');
      continue;
    }
    lines.push(`  ${pkg.dir}:`, '    dependencies:');
    for (const dep of pkg.deps) lines.push(`      '${nameOf(dep)}':`, '        specifier: workspace:*', `        version: link:${relative(pkg.dir, dep)}`);
    lines.push('');
  }
  return lines.join('\n');
}

function link(repo: TempRepo, path: string, target: string): void {
  const full = join(repo.dir, path);
  mkdirSync(dirname(full), { recursive: true });
  symlinkSync(relative(dirname(full), join(repo.dir, target)), full, 'junction');
}

/** An npm workspace of 12 packages (see JS_PACKAGES), linked as npm does: node_modules/@acme/NAME → the package. */
export function npmWorkspace(options: WorkspaceOptions = {}): TempRepo {
  const repo = makeRepo(jsFiles('npm', options), { commit: false });
  for (const pkg of JS_PACKAGES) link(repo, `node_modules/${nameOf(pkg.dir)}`, pkg.dir);
  repo.commit('initial');
  return repo;
}

/** The same 12 packages as a pnpm workspace, linked as pnpm does: each package's node_modules/@acme/DEP → the dependency. */
export function pnpmWorkspace(options: WorkspaceOptions = {}): TempRepo {
  const repo = makeRepo(jsFiles('pnpm', options), { commit: false });
  for (const pkg of JS_PACKAGES) for (const dep of pkg.deps) link(repo, `${pkg.dir}/node_modules/${nameOf(dep)}`, dep);
  repo.commit('initial');
  return repo;
}

export interface SeededBug {
  /** The package whose test now fails, and its gate's qualified name. */
  dir: string;
  gate: string;
  test: string;
  /** Repo-relative test file, and the line of the failing assertion (also the test's own line). */
  file: string;
  line: number;
  /** `test/cart.test.js:6`: relative to the package, as node --test run there prints it. */
  location: string;
}

/**
 * packages/shared's pluralize takes (word, count) now; its own test follows and passes, but
 * apps/web (never touched) still calls pluralize(count, word), so web's test fails.
 */
export function breakShared(repo: TempRepo): SeededBug {
  const source = read(repo, 'packages/shared/src/index.js');
  repo.write('packages/shared/src/index.js', source.replace('export function pluralize(count, word)', 'export function pluralize(word, count)'));
  repo.write('packages/shared/test/index.test.js', read(repo, 'packages/shared/test/index.test.js').replace("pluralize(2, 'item')", "pluralize('item', 2)"));
  const dir = 'apps/web';
  return { dir, gate: `${dir}:test`, test: WEB_TEST_NAME, file: `${dir}/${testFile(dir)}`, line: WEB_TEST_LINE, location: `${testFile(dir)}:${WEB_TEST_LINE}` };
}

/** A harmless change (a new export, its tests still pass) in one leaf; returns its dir. */
export function touchLeaf(repo: TempRepo): string {
  const dir = 'packages/leaf-a';
  repo.write(`${dir}/src/index.js`, `${read(repo, `${dir}/src/index.js`)}\nexport function isBetween(value, min, max) {\n  return clamp(value, min, max) === value;\n}\n`);
  return dir;
}

function read(repo: TempRepo, path: string): string {
  return readFileSync(join(repo.dir, path), 'utf8');
}

/** What go needs to build these fixtures with no network and caches of its own (`home` is a temp dir). */
export function goEnv(home: string): Record<string, string> {
  // GOFLAGS is set empty, not -mod=mod: in workspace mode go refuses any -mod but readonly.
  return { GOCACHE: join(home, 'cache'), GOPATH: join(home, 'path'), GOFLAGS: '', GOPROXY: 'off', GONOSUMDB: '*', GOTOOLCHAIN: 'local', GOTELEMETRY: 'off' };
}

const goTest = (pkg: string, name: string, call: string, want: string) =>
  `package ${pkg}\n\nimport "testing"\n\nfunc Test${name}(t *testing.T) {\n\tif got, want := ${call}, ${want}; got != want {\n\t\tt.Fatalf("got %q, want %q", got, want)\n\t}\n}\n`;

/**
 * A go.work with 3 modules: shared (example.com/shared), api (requires shared, resolved through
 * go.work with no go.sum or network), tool (alone). `go test ./...` passes in each module.
 */
export function goWorkspace(options: WorkspaceOptions = {}): TempRepo {
  const files: Record<string, string> = {
    'go.work': 'go 1.19\n\nuse (\n\t./shared\n\t./api\n\t./tool\n)\n',
    'shared/go.mod': 'module example.com/shared\n\ngo 1.19\n',
    'shared/greeting.go': 'package shared\n\n// Greeting is how every service says hello.\nfunc Greeting(name string) string {\n\treturn "Hello, " + name\n}\n',
    'shared/greeting_test.go': goTest('shared', 'Greeting', 'Greeting("Ada")', '"Hello, Ada"'),
    'api/go.mod': 'module example.com/api\n\ngo 1.19\n\nrequire example.com/shared v0.0.0\n',
    'api/welcome.go': 'package api\n\nimport "example.com/shared"\n\n// Welcome is the API\'s greeting.\nfunc Welcome(user string) string {\n\treturn shared.Greeting(user) + "!"\n}\n',
    'api/welcome_test.go': goTest('api', 'Welcome', 'Welcome("Ada")', '"Hello, Ada!"'),
    'tool/go.mod': 'module example.com/tool\n\ngo 1.19\n',
    'tool/version.go': 'package tool\n\n// Version is the tool\'s release.\nfunc Version() string {\n\treturn "1.0.0"\n}\n',
    'tool/version_test.go': goTest('tool', 'Version', 'Version()', '"1.0.0"'),
  };
  if (options.gateConfigs) {
    for (const dir of ['shared', 'api', 'tool']) files[`${dir}/gate.config.json`] = json({ gates: [{ name: 'test', run: ['go', 'test', './...'], filter: 'go-test' }] });
    files['gate.config.json'] = json({ workspaces: 'go' });
  }
  return makeRepo(files, { commit: true });
}

/** What cargo needs to build these fixtures offline, into a target folder outside the repo. */
export function cargoEnv(home: string): Record<string, string> {
  return { CARGO_TARGET_DIR: join(home, 'target'), CARGO_NET_OFFLINE: 'true', CARGO_TERM_COLOR: 'never', CARGO_INCREMENTAL: '0' };
}

const crate = (name: string, deps = '') => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n${deps ? `\n[dependencies]\n${deps}` : ''}`;
const rustTest = (name: string, body: string) => `\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn ${name}() {\n        ${body}\n    }\n}\n`;

/**
 * A cargo workspace of 3 crates: acme-shared (shared/), acme-app (app/, a path dependency on
 * shared), acme-tool (tool/, alone); Cargo.lock committed, so a build leaves the tree clean.
 */
export function cargoWorkspace(options: WorkspaceOptions = {}): TempRepo {
  const files: Record<string, string> = {
    '.gitignore': 'target/\n',
    'Cargo.toml': '[workspace]\nmembers = ["shared", "app", "tool"]\nresolver = "2"\n',
    'Cargo.lock':
      '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 3\n\n[[package]]\nname = "acme-app"\nversion = "0.1.0"\ndependencies = [\n "acme-shared",\n]\n\n[[package]]\nname = "acme-shared"\nversion = "0.1.0"\n\n[[package]]\nname = "acme-tool"\nversion = "0.1.0"\n',
    'shared/Cargo.toml': crate('acme-shared'),
    'shared/src/lib.rs': `pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n${rustTest('adds', 'assert_eq!(super::add(1, 2), 3);')}`,
    'app/Cargo.toml': crate('acme-app', 'acme-shared = { path = "../shared" }\n'),
    'app/src/lib.rs': `pub fn total() -> i32 {\n    acme_shared::add(2, 2)\n}\n${rustTest('totals', 'assert_eq!(super::total(), 4);')}`,
    'tool/Cargo.toml': crate('acme-tool'),
    'tool/src/lib.rs': `pub fn name() -> &'static str {\n    "tool"\n}\n${rustTest('names', 'assert_eq!(super::name(), "tool");')}`,
  };
  if (options.gateConfigs) {
    for (const dir of ['shared', 'app', 'tool']) files[`${dir}/gate.config.json`] = json({ gates: [{ name: 'test', run: ['cargo', 'test', '--offline'], filter: 'cargo-test' }] });
    files['gate.config.json'] = json({ workspaces: 'cargo' });
  }
  return makeRepo(files, { commit: true });
}
