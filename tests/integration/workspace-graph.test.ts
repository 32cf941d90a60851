import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { dependentsOf, detectWorkspaceKind, packageOf, readWorkspace, WorkspaceError, type WorkspaceGraph } from '../../src/workspace/workspace-graph.js';
import { requireTools } from '../helpers/fast-tier.js';
import type { TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';
import { breakShared, cargoEnv, cargoWorkspace, goEnv, goWorkspace, JS_PACKAGES, npmWorkspace, pnpmWorkspace } from '../helpers/workspace-fixtures.js';

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

const home = mkdtempSync(join(tmpdir(), 'gate-workspace-tools-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const edges = (graph: WorkspaceGraph) => Object.fromEntries(graph.packages.map((pkg) => [pkg.dir, pkg.dependsOn]));

describe.each([
  ['npm', npmWorkspace],
  ['pnpm', pnpmWorkspace],
] as const)('the 12-package %s workspace fixture', (kind, makeWorkspace) => {
  it('is detected and read with every package, name and internal dependency', async () => {
    repo = makeWorkspace({ gateConfigs: true });
    expect(detectWorkspaceKind(repo.dir)).toBe(kind);
    const graph = await readWorkspace(repo.dir, 'auto');
    expect(graph.kind).toBe(kind);
    expect(graph.root).toBe(repo.dir);
    expect(graph.packages).toHaveLength(12);
    expect(edges(graph)).toEqual(Object.fromEntries(JS_PACKAGES.map((pkg) => [pkg.dir, [...pkg.deps].sort()])));
    expect(graph.packages.find((pkg) => pkg.dir === 'apps/web')?.name).toBe('@acme/web');
  });

  it('reaches the shared library\'s dependents, not the leaves or the slow package', async () => {
    repo = makeWorkspace();
    const graph = await readWorkspace(repo.dir, kind);
    expect(packageOf(graph, 'packages/shared/src/index.js')?.name).toBe('@acme/shared');
    expect(packageOf(graph, 'package.json')).toBeUndefined();
    expect(dependentsOf(graph, ['packages/shared'])).toEqual(['apps/admin', 'apps/api', 'apps/web', 'packages/utils']);
    expect(dependentsOf(graph, ['packages/utils'])).toEqual(['apps/admin', 'apps/web']);
    expect(dependentsOf(graph, ['packages/leaf-a'])).toEqual([]);
    expect(dependentsOf(graph, ['packages/slow'])).toEqual([]);
  });

  it('breakShared passes shared\'s own tests and fails the dependent\'s at the file:line it returns', () => {
    repo = makeWorkspace();
    const bug = breakShared(repo);
    const nodeTest = (dir: string) => spawnSync(process.execPath, ['--test'], { cwd: join(repo?.dir ?? '', dir), env: repo?.env, encoding: 'utf8' });
    for (const dir of ['packages/shared', 'packages/utils', 'apps/api', 'apps/admin']) expect(nodeTest(dir).status, dir).toBe(0);
    const web = nodeTest(bug.dir);
    expect(web.status).toBe(1);
    expect(web.stdout).toContain(bug.test);
    expect(web.stdout).toContain(`${bug.file}:${bug.line}:`);
    expect(web.stdout).toContain(bug.location);
  });
});

describe('yarn', () => {
  it('is told from npm by its lockfile, and read from the same workspaces field', async () => {
    repo = npmWorkspace();
    writeFileSync(join(repo.dir, 'yarn.lock'), '# yarn lockfile v1\n');
    expect(detectWorkspaceKind(repo.dir)).toBe('yarn');
    expect((await readWorkspace(repo.dir, 'auto')).packages).toHaveLength(12);
  });
});

describe.skipIf(!requireTools('go'))('the go.work fixture', () => {
  it('is read from go.work and the go.mod requires, and its api really depends on shared, offline', async () => {
    repo = goWorkspace();
    expect(detectWorkspaceKind(repo.dir)).toBe('go');
    const graph = await readWorkspace(repo.dir, 'auto');
    expect(graph.packages).toEqual([
      { dir: 'api', name: 'example.com/api', dependsOn: ['shared'] },
      { dir: 'shared', name: 'example.com/shared', dependsOn: [] },
      { dir: 'tool', name: 'example.com/tool', dependsOn: [] },
    ]);
    expect(dependentsOf(graph, ['shared'])).toEqual(['api']);

    const env = { ...repo.env, PATH: toolEnv()['PATH'] ?? '', ...goEnv(home) };
    const goTest = (dir: string) => spawnSync('go', ['test', './...'], { cwd: join(repo?.dir ?? '', dir), env, encoding: 'utf8' });
    for (const dir of ['shared', 'api', 'tool']) expect(goTest(dir), dir).toMatchObject({ status: 0 });
    repo.write('shared/greeting.go', 'package shared\n\nfunc Greet(name string) string {\n\treturn "Hello, " + name\n}\n');
    repo.write('shared/greeting_test.go', 'package shared\n\nimport "testing"\n\nfunc TestGreet(t *testing.T) {\n\tif Greet("Ada") != "Hello, Ada" {\n\t\tt.Fatal("Greet")\n\t}\n}\n');
    expect(goTest('shared')).toMatchObject({ status: 0 });
    const api = goTest('api');
    expect(api.status).not.toBe(0);
    expect(api.stderr).toMatch(/undefined: shared\.Greeting/);
    expect(repo.git('status', '--short', '--', 'go.work.sum')).toBe('');
  });
});

describe.skipIf(!requireTools('cargo'))('the cargo workspace fixture', () => {
  it('is read through cargo metadata, offline, with path dependencies as edges', async () => {
    repo = cargoWorkspace();
    expect(detectWorkspaceKind(repo.dir)).toBe('cargo');
    const graph = await readWorkspace(repo.dir, 'auto', { env: toolEnv() });
    expect(graph).toEqual({
      kind: 'cargo',
      root: repo.dir,
      packages: [
        { dir: 'app', name: 'acme-app', dependsOn: ['shared'] },
        { dir: 'shared', name: 'acme-shared', dependsOn: [] },
        { dir: 'tool', name: 'acme-tool', dependsOn: [] },
      ],
    });
    expect(dependentsOf(graph, ['shared'])).toEqual(['app']);
  });

  it('builds and tests offline and leaves the committed tree clean', () => {
    repo = cargoWorkspace();
    const result = spawnSync('cargo', ['test', '--offline'], { cwd: repo.dir, env: { ...toolEnv(repo.env), ...cargoEnv(home) }, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/tests::totals \.\.\. ok/);
    expect(repo.git('status', '--short')).toBe('');
  });

  it('says so when cargo is not on PATH', async () => {
    repo = cargoWorkspace();
    const reading = readWorkspace(repo.dir, 'cargo', { env: { PATH: join(home, 'no-tools') } });
    await expect(reading).rejects.toThrow(WorkspaceError);
    await expect(reading).rejects.toThrow('Cargo.toml: names a cargo workspace, but cargo was not found on PATH');
  });
});
