import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigTree } from '../../src/config/config-tree.js';
import { findRootConfig, readConfigAt } from '../../src/config/find-config.js';
import { listConfigDirs } from '../../src/config/list-config-dirs.js';
import { loadConfig } from '../../src/config/load-config.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const test = (name = 'test') => JSON.stringify({ gates: [{ name, run: ['node', '--test'] }] });

function tree(r: TempRepo, paths: string[], all = false) {
  const rootFiles = findRootConfig(r.dir, r.dir);
  if (!rootFiles) throw new Error('no root config');
  return loadConfigTree({ repoRoot: r.dir, rootFiles, change: { paths, all }, load: async (files) => loadConfig(files, r.dir), listConfigDirs: () => listConfigDirs(r.dir) });
}

describe('the configs a change involves', () => {
  it('gives each changed file to the nearest config, and names package gates by their directory', async () => {
    repo = makeRepo({
      'gate.config.json': JSON.stringify({ maxBlocks: 5, gates: [{ name: 'lint', run: ['true'] }] }),
      'packages/a/gate.config.json': test(),
      'packages/a/src/deep/x.js': '',
      'packages/b/gate.config.json': JSON.stringify({ budget: 900, gates: [{ name: 'test', run: ['true'] }] }),
      'docs/readme.md': '',
    });
    const loaded = await tree(repo, ['packages/a/src/deep/x.js', 'docs/readme.md', 'README.md']);
    expect(loaded.gates.map((gate) => gate.name)).toEqual(['lint', 'packages/a:test']);
    expect(loaded.scopes.get(repo.dir)?.paths).toEqual(['docs/readme.md', 'README.md']);
    expect(loaded.scopes.get(`${repo.dir}/packages/a`)?.paths).toEqual(['packages/a/src/deep/x.js']);
    expect(loaded.root.maxBlocks).toBe(5);
    expect(loaded.gates[1]).toMatchObject({ shortName: 'test', configDir: `${repo.dir}/packages/a`, cwd: `${repo.dir}/packages/a` });
    // Packages with nothing changed are not even read.
    expect(loaded.scopes.has(`${repo.dir}/packages/b`)).toBe(false);
  });

  it('takes stop-wide settings from the root config only, and says which package settings it ignored', async () => {
    repo = makeRepo({ 'gate.config.json': test('root'), 'packages/b/gate.config.json': JSON.stringify({ budget: 900, gates: [{ name: 'test', run: ['true'] }] }) });
    const loaded = await tree(repo, ['packages/b/x.js']);
    expect(loaded.root.budget).toBe(6000);
    expect(loaded.ignoredKeys).toEqual(['packages/b/gate.config.json sets "budget", which only the root config decides: ignored']);
  });

  it('the root config is the topmost one above the launch directory', () => {
    repo = makeRepo({ 'gate.config.json': test('root'), 'packages/b/gate.config.json': test() });
    expect(findRootConfig(`${repo.dir}/packages/b`, repo.dir)?.dir).toBe(repo.dir);
    expect(readConfigAt(`${repo.dir}/packages/b`)?.dir).toBe(`${repo.dir}/packages/b`);
  });

  it('a personal gate.local.json alone makes a directory a package config, and layers on its team file', async () => {
    repo = makeRepo({
      'gate.config.json': test('root'),
      'packages/a/gate.config.json': test(),
      'packages/a/gate.local.json': JSON.stringify({ gates: [{ name: 'test', timeout: 7 }, { name: 'mine', run: ['true'] }] }),
      'packages/c/gate.local.json': test('solo'),
      '.gitignore': 'gate.local.json\n',
    });
    const loaded = await tree(repo, ['packages/a/x.js', 'packages/c/y.js']);
    expect(loaded.gates.map((gate) => [gate.name, gate.timeoutSeconds])).toEqual([
      ['root', 300],
      ['packages/a:test', 7],
      ['packages/a:mine', 300],
      ['packages/c:solo', 300],
    ]);
  });

  it('a change that could not be narrowed down involves every config of the repository, ignored personal files included', async () => {
    repo = makeRepo({
      'gate.config.json': test('root'),
      'packages/a/gate.config.json': test(),
      'packages/c/gate.local.json': test('solo'),
      'node_modules/dep/gate.config.json': test('never'),
      '.gitignore': 'gate.local.json\nnode_modules/\n',
    });
    repo.commit('init');
    const loaded = await tree(repo, [], true);
    expect(loaded.gates.map((gate) => gate.name)).toEqual(['root', 'packages/a:test', 'packages/c:solo']);
  });

  it('an invalid package config is a config error naming that file', async () => {
    repo = makeRepo({ 'gate.config.json': test('root'), 'packages/a/gate.config.json': '{ "gates": [ { "name": "test", "tiemout": 3 } ] }' });
    await expect(tree(repo, ['packages/a/x.js'])).rejects.toThrow(/packages\/a\/gate\.config\.json: gates\[0\]\.tiemout: unknown key "tiemout"; did you mean "timeout"\?/);
  });

  it('lists config directories with git, tracked, untracked and ignored', async () => {
    repo = makeRepo({ 'gate.config.json': '{}', 'a/gate.config.json': '{}', 'b/gate.local.json': '{}', '.gitignore': 'gate.local.json\n' });
    execFileSync('git', ['add', 'gate.config.json'], { cwd: repo.dir, env: repo.env });
    expect(await listConfigDirs(repo.dir)).toEqual([repo.dir, `${repo.dir}/a`, `${repo.dir}/b`]);
  });

  describe('with "workspaces"', () => {
    const workspace = (extra: Record<string, string> = {}) => ({
      'gate.config.json': JSON.stringify({ workspaces: 'npm', gates: [{ name: 'root', run: ['true'], on: ['*.md'] }] }),
      'package.json': JSON.stringify({ name: 'acme', private: true, workspaces: ['packages/*', 'apps/*'] }),
      'packages/shared/package.json': JSON.stringify({ name: '@acme/shared' }),
      'packages/shared/gate.config.json': test(),
      'apps/web/package.json': JSON.stringify({ name: '@acme/web', dependencies: { '@acme/shared': '*' } }),
      'apps/web/gate.config.json': test(),
      'apps/docs/package.json': JSON.stringify({ name: '@acme/docs', devDependencies: { '@acme/shared': '*' } }),
      'apps/lone/package.json': JSON.stringify({ name: '@acme/lone' }),
      'apps/lone/gate.config.json': test(),
      ...extra,
    });

    it('adds the packages that depend on a changed one, each through its nearest config', async () => {
      repo = makeRepo(workspace());
      const loaded = await tree(repo, ['packages/shared/index.js']);
      expect(loaded.gates.map((gate) => gate.name)).toEqual(['root', 'apps/web:test', 'packages/shared:test']);
      const why = 'it depends on @acme/shared, which changed';
      expect(loaded.scopes.get(`${repo.dir}/apps/web`)).toMatchObject({ paths: [], upstream: { paths: ['packages/shared/index.js'], why }, content: { related: [`${repo.dir}/apps/web`, `${repo.dir}/packages/shared`] } });
      // apps/docs has no config of its own: the root config's gates look only at the files it owns.
      expect(loaded.scopes.get(repo.dir)).toEqual({ paths: [] });
      expect(loaded.scopes.has(`${repo.dir}/apps/lone`)).toBe(false);
    });

    it('a lockfile change reaches every package', async () => {
      repo = makeRepo(workspace());
      const loaded = await tree(repo, ['package-lock.json']);
      expect(loaded.gates.map((gate) => gate.name)).toEqual(['root', 'apps/lone:test', 'apps/web:test', 'packages/shared:test']);
      expect(loaded.scopes.get(repo.dir)).toEqual({ paths: ['package-lock.json'] });
    });

    it('a manifest that does not parse: the changed package still runs, and the human is told dependents were not checked', async () => {
      repo = makeRepo(workspace({ 'apps/web/package.json': '{ "name": ' }));
      const loaded = await tree(repo, ['packages/shared/index.js']);
      expect(loaded.gates.map((gate) => gate.name)).toEqual(['root', 'packages/shared:test']);
      expect(loaded.notices).toEqual([expect.stringMatching(/^The workspace's dependency graph could not be read, so packages that depend on a changed one were not checked: .*apps\/web\/package\.json/)]);
    });
  });
});

