import { describe, expect, it } from 'vitest';
import { reachedPackages, uncoveredPackages } from '../../src/plan/workspace-scope.js';
import type { WorkspaceGraph } from '../../src/workspace/workspace-graph.js';

// shared ← utils ← web;  shared ← api;  leaf alone;  a cycle: x ↔ y
const graph: WorkspaceGraph = {
  kind: 'npm',
  root: '/repo',
  packages: [
    { dir: 'packages/shared', name: '@acme/shared', dependsOn: [] },
    { dir: 'packages/utils', name: '@acme/utils', dependsOn: ['packages/shared'] },
    { dir: 'apps/web', name: '@acme/web', dependsOn: ['packages/utils'] },
    { dir: 'apps/api', name: '@acme/api', dependsOn: ['packages/shared'] },
    { dir: 'packages/leaf', name: '@acme/leaf', dependsOn: [] },
    { dir: 'packages/x', name: '@acme/x', dependsOn: ['packages/y'] },
    { dir: 'packages/y', name: '@acme/y', dependsOn: ['packages/x'] },
  ],
};
const at = (...paths: string[]) => paths.map((path) => ({ path, local: path }));
const AFFECTS_ALL = ['package.json', 'package-lock.json'];

describe('the packages a change reaches through the workspace graph', () => {
  it('a leaf reaches nothing else', () => {
    expect(reachedPackages(graph, AFFECTS_ALL, at('packages/leaf/src/a.js'))).toEqual([]);
  });

  it('the shared library reaches its dependents, transitively, not itself', () => {
    const reached = reachedPackages(graph, AFFECTS_ALL, at('packages/shared/src/a.js'));
    expect(reached.map((pkg) => pkg.dir)).toEqual(['/repo/apps/api', '/repo/apps/web', '/repo/packages/utils']);
    expect(reached[0]).toMatchObject({ upstream: ['packages/shared/src/a.js'], why: 'it depends on @acme/shared, which changed' });
  });

  it('gives each dependent only the changes of the packages it depends on, and what its result depends on', () => {
    const reached = reachedPackages(graph, AFFECTS_ALL, at('packages/utils/src/u.js', 'packages/x/a.js'));
    const web = reached.find((pkg) => pkg.dir === '/repo/apps/web');
    expect(web).toMatchObject({ upstream: ['packages/utils/src/u.js'], why: 'it depends on @acme/utils, which changed' });
    expect(web?.content.related).toEqual(['/repo/apps/web', '/repo/packages/shared', '/repo/packages/utils']);
    expect(web?.content.packages).toHaveLength(7);
    expect(reached.find((pkg) => pkg.dir === '/repo/packages/y')?.upstream).toEqual(['packages/x/a.js']);
  });

  it('a cycle ends', () => {
    expect(reachedPackages(graph, AFFECTS_ALL, at('packages/x/a.js')).map((pkg) => pkg.dir)).toEqual(['/repo/packages/y']);
  });

  it('a root file every package depends on reaches every package; a nested package.json does not', () => {
    const reached = reachedPackages(graph, AFFECTS_ALL, at('package-lock.json', 'packages/leaf/package.json'));
    expect(reached).toHaveLength(7);
    expect(reached[0]?.why).toBe('package-lock.json changed, which affects every package');
    expect(reachedPackages(graph, AFFECTS_ALL, at('packages/leaf/package.json'))).toEqual([]);
  });

  it('paths outside the workspace root or in no package reach nothing', () => {
    expect(reachedPackages(graph, AFFECTS_ALL, [{ path: 'other/x.js', local: '../other/x.js' }, ...at('README.md')])).toEqual([]);
  });
});

describe('the changed packages no config of their own covers', () => {
  const withConfig = new Set(['/repo/packages/shared', '/repo/apps/web']);
  const hasOwnConfig = (dir: string) => withConfig.has(dir);

  it('names a changed package without a config where other packages have one, once, sorted', () => {
    expect(uncoveredPackages(graph, at('packages/leaf/src/a.js', 'packages/leaf/test/a.js', 'apps/api/x.js', 'packages/shared/src/a.js'), hasOwnConfig)).toEqual(['/repo/apps/api', '/repo/packages/leaf']);
  });

  it('names nothing when no package has a config (the root config covers them all), or the path is in no package', () => {
    expect(uncoveredPackages(graph, at('packages/leaf/src/a.js'), () => false)).toEqual([]);
    expect(uncoveredPackages(graph, at('README.md', 'apps/web/src/a.js'), hasOwnConfig)).toEqual([]);
  });
});
