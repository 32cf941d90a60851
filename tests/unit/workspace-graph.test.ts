import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import picomatch from 'picomatch';
import { afterEach, describe, expect, it } from 'vitest';
import { expandWorkspaceGlobs } from '../../src/workspace/expand-workspace-globs.js';
import { linkNpmPackages, type NpmManifest } from '../../src/workspace/link-npm-packages.js';
import { argumentsOf, goModulePath, parseGoModFile } from '../../src/workspace/parse-go-mod.js';
import { parsePnpmWorkspacePackages } from '../../src/workspace/parse-pnpm-workspace.js';
import { hasWorkspaceTable, toPackages } from '../../src/workspace/read-cargo-workspace.js';
import { workspaceGlobs } from '../../src/workspace/read-npm-workspace.js';
import {
  AFFECTS_ALL,
  dependentsOf,
  detectWorkspaceKind,
  packageOf,
  readWorkspace,
  WorkspaceError,
  type WorkspaceGraph,
  type WorkspacePackage,
} from '../../src/workspace/workspace-graph.js';

const pkg = (dir: string, dependsOn: string[] = []): WorkspacePackage => ({ dir, name: `@acme/${dir.split('/').at(-1)}`, dependsOn });
const graphOf = (...packages: WorkspacePackage[]): WorkspaceGraph => ({ kind: 'npm', root: '/nonexistent/repo', packages });

describe('packageOf', () => {
  const graph = graphOf(pkg('packages/a'), pkg('packages/a/nested'), pkg('packages/ab'));

  it('takes the longest dir that holds the path', () => {
    expect(packageOf(graph, 'packages/a/src/x.ts')?.dir).toBe('packages/a');
    expect(packageOf(graph, 'packages/a/nested/src/x.ts')?.dir).toBe('packages/a/nested');
    expect(packageOf(graph, 'packages/a/nested')?.dir).toBe('packages/a/nested');
  });

  it('matches whole path segments only, and nothing for root files', () => {
    expect(packageOf(graph, 'packages/ab/x.ts')?.dir).toBe('packages/ab');
    expect(packageOf(graph, 'packages/abc/x.ts')).toBeUndefined();
    expect(packageOf(graph, 'package.json')).toBeUndefined();
    expect(packageOf(graph, 'packages')).toBeUndefined();
  });
});

describe('dependentsOf', () => {
  // shared ← utils ← web; shared ← api; leaf alone.
  const graph = graphOf(pkg('packages/shared'), pkg('packages/utils', ['packages/shared']), pkg('apps/web', ['packages/utils']), pkg('apps/api', ['packages/shared']), pkg('packages/leaf'));

  it('follows dependents transitively, sorted, without the inputs', () => {
    expect(dependentsOf(graph, ['packages/shared'])).toEqual(['apps/api', 'apps/web', 'packages/utils']);
    expect(dependentsOf(graph, ['packages/utils'])).toEqual(['apps/web']);
    expect(dependentsOf(graph, new Set(['packages/shared', 'packages/utils']))).toEqual(['apps/api', 'apps/web']);
  });

  it('is empty for a leaf, an app, no input and a dir that is no package', () => {
    expect(dependentsOf(graph, ['packages/leaf'])).toEqual([]);
    expect(dependentsOf(graph, ['apps/web'])).toEqual([]);
    expect(dependentsOf(graph, [])).toEqual([]);
    expect(dependentsOf(graph, ['nowhere'])).toEqual([]);
  });

  it('stops on a cycle', () => {
    const cyclic = graphOf(pkg('a', ['c']), pkg('b', ['a']), pkg('c', ['b']), pkg('d', ['c']), pkg('self', ['self']));
    expect(dependentsOf(cyclic, ['a'])).toEqual(['b', 'c', 'd']);
    expect(dependentsOf(cyclic, ['self'])).toEqual([]);
  });
});

describe('AFFECTS_ALL', () => {
  const affects = (kind: keyof typeof AFFECTS_ALL, path: string) => picomatch(AFFECTS_ALL[kind], { dot: true })(path);

  it('matches the root manifest, lockfile and settings, not a package\'s own', () => {
    expect(affects('npm', 'package-lock.json')).toBe(true);
    expect(affects('npm', 'tsconfig.base.json')).toBe(true);
    expect(affects('npm', 'packages/a/package.json')).toBe(false);
    expect(affects('npm', 'packages/a/tsconfig.json')).toBe(false);
    expect(affects('pnpm', 'pnpm-workspace.yaml')).toBe(true);
    expect(affects('pnpm', '.pnpmfile.cjs')).toBe(true);
    expect(affects('yarn', '.yarnrc.yml')).toBe(true);
    expect(affects('go', 'go.work.sum')).toBe(true);
    expect(affects('go', 'api/go.mod')).toBe(false);
    expect(affects('cargo', '.cargo/config.toml')).toBe(true);
    expect(affects('cargo', 'app/Cargo.toml')).toBe(false);
  });
});

describe('parsePnpmWorkspacePackages', () => {
  it('reads the block form with quotes, comments, exclusions, CRLF and a BOM', () => {
    const text = "\ufeff# the workspace\r\npackages:   # members\r\n  - 'packages/*'\r\n\r\n  # apps too\r\n  - \"apps/*\" # comment\r\n  - tools/#not-a-comment\r\n  - '!**/test/**'\r\n  - 'it''s/*'\r\ncatalog:\r\n  react: ^19\r\n";
    expect(parsePnpmWorkspacePackages(text)).toEqual(['packages/*', 'apps/*', 'tools/#not-a-comment', '!**/test/**', "it's/*"]);
  });

  it('reads items at the key\'s own indentation, and stops at the next key', () => {
    expect(parsePnpmWorkspacePackages('packages:\n- a/*\n- b\nonlyBuiltDependencies:\n  - esbuild\n')).toEqual(['a/*', 'b']);
  });

  it('reads the flow form, on one line or several', () => {
    expect(parsePnpmWorkspacePackages("packages: [packages/*, 'apps/*', \"a,b\"]  # flow\n")).toEqual(['packages/*', 'apps/*', 'a,b']);
    expect(parsePnpmWorkspacePackages("packages: [\n  'packages/*', # libs\n  apps/*,\n]\n")).toEqual(['packages/*', 'apps/*']);
    expect(parsePnpmWorkspacePackages('packages: []\n')).toEqual([]);
  });

  it('is undefined without a top-level packages key', () => {
    expect(parsePnpmWorkspacePackages('onlyBuiltDependencies:\n  - esbuild\n')).toBeUndefined();
    expect(parsePnpmWorkspacePackages('settings:\n  packages:\n    - a\n')).toBeUndefined();
    expect(parsePnpmWorkspacePackages('')).toBeUndefined();
  });

  it('names the line of what it can\'t read', () => {
    expect(() => parsePnpmWorkspacePackages('packages: packages/*\n')).toThrow('line 1: "packages" is not a list');
    expect(() => parsePnpmWorkspacePackages("packages:\n  - 'open\n")).toThrow('line 2: no closing quote');
    expect(() => parsePnpmWorkspacePackages('packages:\n  - a\n  b: c\n')).toThrow('line 3');
    expect(() => parsePnpmWorkspacePackages("packages: ['a',\n  'b'\n")).toThrow('no closing ]');
  });
});

describe('parseGoModFile', () => {
  it('reads single and block directives, comments, quotes, CRLF and a BOM', () => {
    const text = '\ufeff// the workspace\r\ngo 1.19\r\n\r\nuse ./shared // the library\r\nuse (\r\n\t./api\r\n\t"./with space" // quoted\r\n\t`./raw`\r\n)\r\nuse ()\r\n';
    expect(argumentsOf(parseGoModFile(text), 'use')).toEqual(['./shared', './api', './with space', './raw']);
  });

  it('reads the module path and every require, single or in a block, direct or indirect', () => {
    const text = 'module example.com/api // the API\n\ngo 1.19\n\nrequire example.com/shared v0.0.0\n\nrequire (\n\texample.com/other v1.2.3 // indirect\n\tgolang.org/x/text v0.3.0\n)\n\nreplace example.com/shared => ../shared\n';
    const directives = parseGoModFile(text);
    expect(goModulePath(directives)).toBe('example.com/api');
    expect(argumentsOf(directives, 'require')).toEqual(['example.com/shared', 'example.com/other', 'golang.org/x/text']);
    expect(goModulePath(parseGoModFile('module "example.com/quoted"\n'))).toBe('example.com/quoted');
    expect(goModulePath(parseGoModFile('go 1.19\n'))).toBeUndefined();
  });

  it('names the line of an unclosed block or string', () => {
    expect(() => parseGoModFile('go 1.19\nuse (\n\t./a\n')).toThrow('line 2: the "use (" block has no closing )');
    expect(() => parseGoModFile('module "example.com/a\n')).toThrow('line 1');
  });
});

describe('linkNpmPackages', () => {
  const manifest = (dir: string, name: string | undefined, dependencies: Array<[string, string]> = []): NpmManifest => ({ dir, name, dependencies });

  it('links a dependency of any spec that names a member, by name, path or alias', () => {
    const packages = linkNpmPackages([
      manifest('packages/shared', '@acme/shared'),
      manifest('packages/utils', '@acme/utils', [['@acme/shared', 'workspace:*']]),
      manifest('apps/web', '@acme/web', [['@acme/utils', '^1.0.0'], ['@acme/shared', 'workspace:^'], ['react', '^19.0.0']]),
      manifest('apps/file', '@acme/file', [['renamed', 'file:../../packages/shared'], ['linked', 'link:../../packages/utils/']]),
      manifest('apps/alias', '@acme/alias', [['lib', 'npm:@acme/shared@*'], ['other', 'workspace:@acme/utils@*'], ['@acme/web', 'npm:left-pad@1']]),
      manifest('apps/portal', '@acme/portal', [['x', 'workspace:../../packages/shared']]),
    ]);
    const edges = Object.fromEntries(packages.map((pkg) => [pkg.dir, pkg.dependsOn]));
    expect(edges).toEqual({
      'packages/shared': [],
      'packages/utils': ['packages/shared'],
      'apps/web': ['packages/shared', 'packages/utils'],
      'apps/file': ['packages/shared', 'packages/utils'],
      'apps/alias': ['packages/shared', 'packages/utils'],
      'apps/portal': ['packages/shared'],
    });
  });

  it('names a package without a name by its dir, which no dependency can name; drops self-edges', () => {
    const packages = linkNpmPackages([manifest('packages/nameless', undefined, [['@acme/a', '*']]), manifest('packages/a', '@acme/a', [['@acme/a', '*'], ['packages/nameless', '*']])]);
    expect(packages).toEqual([
      { dir: 'packages/nameless', name: 'packages/nameless', dependsOn: ['packages/a'] },
      { dir: 'packages/a', name: '@acme/a', dependsOn: [] },
    ]);
  });

  it('refuses two members with one name, naming both files', () => {
    const link = () => linkNpmPackages([manifest('packages/a', '@acme/x'), manifest('packages/b', '@acme/x')]);
    expect(link).toThrow(WorkspaceError);
    expect(link).toThrow('packages/b/package.json: has the name "@acme/x", as packages/a/package.json does; give each workspace package its own name');
  });
});

describe('workspaceGlobs and hasWorkspaceTable', () => {
  it('reads workspaces as an array or { packages }', () => {
    expect(workspaceGlobs({ workspaces: ['packages/*'] })).toEqual(['packages/*']);
    expect(workspaceGlobs({ workspaces: { packages: ['apps/*'], nohoist: ['**/x'] } })).toEqual(['apps/*']);
    expect(workspaceGlobs({ workspaces: 'packages/*' })).toBeUndefined();
    expect(workspaceGlobs({ workspaces: [1] })).toBeUndefined();
    expect(workspaceGlobs({ name: 'x' })).toBeUndefined();
    expect(workspaceGlobs(null)).toBeUndefined();
  });

  it('finds [workspace] and [workspace.*] tables, not a key or a comment', () => {
    expect(hasWorkspaceTable('[workspace]\nmembers = ["a"]\n')).toBe(true);
    expect(hasWorkspaceTable('[package]\nname = "x"\n\n[workspace.dependencies]\nserde = "1"\n')).toBe(true);
    expect(hasWorkspaceTable('\r\n  [ workspace ]  # root\r\n')).toBe(true);
    expect(hasWorkspaceTable('[package]\nname = "x"\nworkspace = "../"\n# [workspace]\n')).toBe(false);
  });
});

describe('toPackages (cargo metadata)', () => {
  it('makes dirs relative, drops the root package and members outside, and keeps edges between members only', () => {
    const root = '/ws';
    const packages = toPackages({
      root,
      members: [
        { id: 'root', name: 'root', dir: '/ws', deps: [{ dir: '/ws/crates/app', dev: false }] },
        { id: 'app', name: 'app', dir: '/ws/crates/app', deps: [{ dir: '/ws/shared', dev: false }, { dir: '/ws/shared', dev: true }, { dir: '/elsewhere/x', dev: false }] },
        { id: 'shared', name: 'shared', dir: '/ws/shared', deps: [{ dir: '/ws/crates/app', dev: true }] },
        { id: 'outside', name: 'outside', dir: '/other', deps: [] },
      ],
    });
    expect(packages).toEqual([
      { dir: 'crates/app', name: 'app', dependsOn: ['shared'] },
      { dir: 'shared', name: 'shared', dependsOn: ['crates/app'] },
    ]);
  });
});

describe('reading a workspace from its files', () => {
  let base: string | undefined;
  afterEach(() => {
    if (base) rmSync(base, { recursive: true, force: true });
    base = undefined;
  });
  const tree = (files: Record<string, string>): string => {
    base = mkdtempSync(join(tmpdir(), 'gate-workspace-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text);
    }
    return base;
  };
  const json = (value: object) => JSON.stringify(value);

  it('expands globs to folders with a package.json, skipping node_modules, dot-dirs, exclusions and the root', () => {
    const root = tree({
      'package.json': '{}',
      'packages/a/package.json': '{}',
      'packages/b/package.json': '{}',
      'packages/no-manifest/src/x.js': '',
      'packages/excluded/package.json': '{}',
      'packages/a/node_modules/dep/package.json': '{}',
      'packages/.hidden/package.json': '{}',
      'apps/deep/er/web/package.json': '{}',
      'tools/one/package.json': '{}',
    });
    symlinkSync(join(root, 'packages/a'), join(root, 'packages/link'));
    expect(expandWorkspaceGlobs(root, ['./packages/*/', '!packages/excluded', 'apps/**', 'tools/one', '.', 'nowhere/*', '../outside/*'])).toEqual([
      'apps/deep/er/web',
      'packages/a',
      'packages/b',
      'tools/one',
    ]);
    expect(expandWorkspaceGlobs(root, ['packages/*', 'packages/a'])).toEqual(['packages/a', 'packages/b', 'packages/excluded']);
    expect(expandWorkspaceGlobs(root, [])).toEqual([]);
    expect(expandWorkspaceGlobs(root, ['!packages/*'])).toEqual([]);
  });

  it('reads an npm workspace whose globs match nothing as no packages', async () => {
    const root = tree({ 'package.json': json({ workspaces: ['packages/*'] }) });
    expect(await readWorkspace(root, 'npm')).toEqual({ kind: 'npm', root, packages: [] });
  });

  it('reads a pnpm workspace with a BOM, CRLF and exclusions', async () => {
    const root = tree({
      'pnpm-workspace.yaml': "\ufeffpackages:\r\n  - 'packages/*'\r\n  - '!packages/skip'\r\n",
      'packages/a/package.json': `\ufeff${json({ name: 'a', devDependencies: { b: 'workspace:*' } })}`,
      'packages/b/package.json': json({ name: 'b' }),
      'packages/skip/package.json': json({ name: 'skip', dependencies: { b: 'workspace:*' } }),
    });
    expect(detectWorkspaceKind(root)).toBe('pnpm');
    expect((await readWorkspace(root, 'auto')).packages).toEqual([
      { dir: 'packages/a', name: 'a', dependsOn: ['packages/b'] },
      { dir: 'packages/b', name: 'b', dependsOn: [] },
    ]);
  });

  it('says which file is missing, unreadable or no workspace, and the fix', async () => {
    const empty = tree({ 'README.md': '' });
    expect(detectWorkspaceKind(empty)).toBeUndefined();
    await expect(readWorkspace(empty, 'auto')).rejects.toThrow(`${empty}: holds no workspace gate knows: no pnpm-workspace.yaml with packages, package.json with workspaces, go.work, Cargo.toml with [workspace], or pyproject.toml with [tool.uv.workspace]; set "workspaces" to the kind this repo uses, or remove it`);
    await expect(readWorkspace(empty, 'npm')).rejects.toThrow(/^package\.json: does not exist at .*; read the workspace from the folder/);
    await expect(readWorkspace(empty, 'pnpm')).rejects.toThrow(/^pnpm-workspace\.yaml: does not exist/);
    await expect(readWorkspace(empty, 'go')).rejects.toThrow(/^go\.work: does not exist .*go work init/);
    await expect(readWorkspace(empty, 'cargo')).rejects.toThrow(/^Cargo\.toml: does not exist/);
    rmSync(empty, { recursive: true, force: true });

    const single = tree({ 'package.json': json({ name: 'single' }), 'pnpm-workspace.yaml': 'onlyBuiltDependencies: [esbuild]\n', 'Cargo.toml': '[package]\nname = "x"\n' });
    expect(detectWorkspaceKind(single)).toBeUndefined();
    await expect(readWorkspace(single, 'npm')).rejects.toThrow('package.json: has no "workspaces" list, so it is not an npm workspace; add one');
    await expect(readWorkspace(single, 'pnpm')).rejects.toThrow('pnpm-workspace.yaml: has no "packages:" list');
    await expect(readWorkspace(single, 'cargo')).rejects.toThrow('Cargo.toml: has no [workspace] table');
    rmSync(single, { recursive: true, force: true });

    const broken = tree({ 'package.json': json({ workspaces: ['packages/*'] }), 'packages/a/package.json': '{ "name": "a", }', 'pnpm-workspace.yaml': "packages:\n  - 'open\n" });
    expect(detectWorkspaceKind(broken)).toBe('pnpm');
    await expect(readWorkspace(broken, 'npm')).rejects.toThrow(/^packages\/a\/package\.json: is not valid JSON at line 1.*fix the syntax/);
    await expect(readWorkspace(broken, 'pnpm')).rejects.toThrow("pnpm-workspace.yaml: line 2: no closing quote in 'open; write");
  });

  it('tells yarn from npm by its lockfile, settings or packageManager', () => {
    const root = tree({ 'package.json': json({ workspaces: { packages: ['packages/*'] } }) });
    expect(detectWorkspaceKind(root)).toBe('npm');
    writeFileSync(join(root, 'yarn.lock'), '');
    expect(detectWorkspaceKind(root)).toBe('yarn');
    writeFileSync(join(root, 'package.json'), json({ workspaces: ['packages/*'], packageManager: 'npm@10.0.0' }));
    expect(detectWorkspaceKind(root)).toBe('npm');
  });

  it('reads a go.work: modules at the root or outside are no members, duplicate paths are refused', async () => {
    const root = tree({
      'go.work': 'go 1.19\n\nuse (\n\t.\n\t./shared\n\t./api // the server\n\t./api/\n\t../elsewhere\n)\n',
      'go.mod': 'module example.com/root\n',
      'shared/go.mod': 'module example.com/shared\n\ngo 1.19\n',
      'api/go.mod': 'module example.com/api\n\ngo 1.19\n\nrequire (\n\texample.com/shared v0.0.0\n\texample.com/root v0.0.0\n\tgolang.org/x/text v0.3.0 // indirect\n)\n',
    });
    expect(detectWorkspaceKind(root)).toBe('go');
    expect(await readWorkspace(root, 'auto')).toEqual({
      kind: 'go',
      root,
      packages: [
        { dir: 'api', name: 'example.com/api', dependsOn: ['shared'] },
        { dir: 'shared', name: 'example.com/shared', dependsOn: [] },
      ],
    });
    writeFileSync(join(root, 'api/go.mod'), 'module example.com/shared\n');
    await expect(readWorkspace(root, 'go')).rejects.toThrow('go.work: uses api and shared, which are both module example.com/shared');
    writeFileSync(join(root, 'go.work'), 'go 1.19\nuse ./missing\n');
    await expect(readWorkspace(root, 'go')).rejects.toThrow('missing/go.mod: does not exist, yet go.work uses missing; create the module');
  });
});
