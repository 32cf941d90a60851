import { reachDependents } from '../fast/reach-dependents.js';
import type { WorkspaceGraph, WorkspacePackage } from './graph-types.js';

export type { WorkspaceGraph, WorkspaceKind, WorkspacePackage } from './graph-types.js';

/** The package holding `path` (relative to the workspace root, posix): the one with the longest dir prefix. */
export function packageOf(graph: WorkspaceGraph, path: string): WorkspacePackage | undefined {
  let owner: WorkspacePackage | undefined;
  for (const pkg of graph.packages) {
    if (path !== pkg.dir && !path.startsWith(`${pkg.dir}/`)) continue;
    if (!owner || pkg.dir.length > owner.dir.length) owner = pkg;
  }
  return owner;
}

/** The dirs of every package that depends on one of `dirs`, transitively, without `dirs` themselves; sorted. */
export function dependentsOf(graph: WorkspaceGraph, dirs: Iterable<string>): string[] {
  const dependents = new Map<string, string[]>();
  for (const pkg of graph.packages) {
    for (const dep of pkg.dependsOn) {
      const list = dependents.get(dep);
      if (list) list.push(pkg.dir);
      else dependents.set(dep, [pkg.dir]);
    }
  }
  const seeds = new Set(dirs);
  return [...reachDependents(seeds, (dir) => dependents.get(dir))].filter((dir) => !seeds.has(dir)).sort();
}

/** The dirs of every package `dir` depends on, transitively, without `dir` itself; sorted. */
export function dependenciesOf(graph: WorkspaceGraph, dir: string): string[] {
  const byDir = new Map(graph.packages.map((pkg) => [pkg.dir, pkg.dependsOn]));
  return [...reachDependents([dir], (node) => byDir.get(node))].filter((found) => found !== dir).sort();
}

// The module's one entry point: the readers and the defaults live in their own files.
export { AFFECTS_ALL } from './affects-all.js';
export { detectWorkspaceKind } from './detect-workspace-kind.js';
export { readWorkspace } from './read-workspace.js';
export { WorkspaceError } from './workspace-error.js';
