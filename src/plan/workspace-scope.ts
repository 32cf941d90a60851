import { join, relative, sep } from 'node:path';
import type { ResolvedConfig } from '../config/load-config.js';
import { pathMatcher } from './path-matcher.js';
import { AFFECTS_ALL } from '../workspace/affects-all.js';
import { readWorkspace } from '../workspace/read-workspace.js';
import { dependenciesOf, dependentsOf, packageOf, type WorkspaceGraph } from '../workspace/workspace-graph.js';

export interface AffectedPackage {
  /** Absolute directory of the package. */
  dir: string;
  /** The changed paths (relative to the repository root) that make it affected. */
  upstream: string[];
  why: string;
  /** What its result can depend on: its own dir and those of the packages it depends on, transitively, and every package's dir (all absolute). */
  content: { related: string[]; packages: string[] };
}

/**
 * The workspace packages a change reaches without holding a changed file: those that depend, directly
 * or not, on a package that does — or every package, when a file every package depends on changed
 * (the lockfile, the root manifest: the kind's `affectsAll`).
 */
export async function affectedPackages(
  workspaceRoot: string,
  setting: NonNullable<ResolvedConfig['workspaces']>,
  repoRoot: string,
  paths: string[],
  env: NodeJS.ProcessEnv,
  hasOwnConfig: (dir: string) => boolean,
): Promise<{ affected: AffectedPackage[]; uncovered: string[] }> {
  const graph = await readWorkspace(workspaceRoot, setting.kind, { env });
  const located = paths.map((path) => ({ path, local: toPosix(relative(workspaceRoot, join(repoRoot, path))) }));
  return { affected: reachedPackages(graph, setting.affectsAll ?? AFFECTS_ALL[graph.kind], located), uncovered: uncoveredPackages(graph, located, hasOwnConfig) };
}

/**
 * The changed packages (absolute dirs) without a config of their own, in a workspace where other
 * packages have one: the team gates per package, so only the root's gates (often lint alone) saw
 * the change, and its tests never ran — a package added in the turn, typically.
 */
export function uncoveredPackages(graph: WorkspaceGraph, paths: Array<{ local: string }>, hasOwnConfig: (dir: string) => boolean): string[] {
  const changed = new Set<string>();
  for (const { local } of paths) {
    const owner = packageOf(graph, local);
    if (owner) changed.add(join(graph.root, owner.dir));
  }
  const without = [...changed].filter((dir) => !hasOwnConfig(dir)).sort();
  if (without.length === 0) return [];
  return graph.packages.some((pkg) => hasOwnConfig(join(graph.root, pkg.dir))) ? without : [];
}

/** The pure part: paths are given both relative to the repository root and to the workspace root. */
export function reachedPackages(graph: WorkspaceGraph, affectsAll: string[], paths: Array<{ path: string; local: string }>): AffectedPackage[] {
  const inside = paths.filter(({ local }) => local !== '' && !local.startsWith('../'));
  const everything = pathMatcher(affectsAll);
  const global = inside.filter(({ local }) => everything(local));
  const packages = graph.packages.map((pkg) => join(graph.root, pkg.dir));
  const content = (dir: string) => ({ related: [dir, ...dependenciesOf(graph, dir)].map((related) => join(graph.root, related)), packages });
  if (global.length > 0) {
    const first = global[0]?.local ?? '';
    const why = `${first}${global.length > 1 ? ` and ${global.length - 1} more` : ''} changed, which affects every package`;
    return graph.packages.map((pkg) => ({ dir: join(graph.root, pkg.dir), upstream: global.map(({ path }) => path), why, content: content(pkg.dir) }));
  }
  const changedBy = new Map<string, string[]>();
  for (const { path, local } of inside) {
    const owner = packageOf(graph, local);
    if (!owner) continue;
    const list = changedBy.get(owner.dir);
    if (list) list.push(path);
    else changedBy.set(owner.dir, [path]);
  }
  const fromRoot = reachedFromRootProject(graph, inside, content);
  if (changedBy.size === 0) return fromRoot;
  const names = new Map(graph.packages.map((pkg) => [pkg.dir, pkg.name]));
  // Per dependent, only the changed packages it depends on: a later change elsewhere is not its upstream.
  const reached = dependentsOf(graph, changedBy.keys()).map((dir) => {
    const changed = dependenciesOf(graph, dir).filter((dep) => changedBy.has(dep));
    const listed = changed.map((dep) => names.get(dep) ?? dep);
    const why = `it depends on ${listed.length > 3 ? `${listed.slice(0, 3).join(', ')} and ${listed.length - 3} more` : listed.join(', ')}, which changed`;
    return { dir: join(graph.root, dir), upstream: changed.flatMap((dep) => changedBy.get(dep) ?? []), why, content: content(dir) };
  });
  return [...reached, ...fromRoot.filter((pkg) => !reached.some((other) => other.dir === pkg.dir) && !changedBy.has(relative(graph.root, pkg.dir).split(sep).join('/')))];
}

/**
 * A uv workspace's members that depend on the root's own project (and their dependents), when one of
 * its sources changed: a Python file of the root's, in no member.
 */
function reachedFromRootProject(graph: WorkspaceGraph, inside: Array<{ path: string; local: string }>, content: (dir: string) => AffectedPackage['content']): AffectedPackage[] {
  const project = graph.rootProject;
  if (project === undefined) return [];
  const isSource = pathMatcher(project.sources);
  const changed = inside.filter(({ local }) => packageOf(graph, local) === undefined && isSource(local));
  if (changed.length === 0) return [];
  const dirs = [...new Set([...project.dependents, ...dependentsOf(graph, project.dependents)])].sort();
  const why = `it depends on ${project.name} (the workspace root's project), which changed`;
  return dirs.map((dir) => ({ dir: join(graph.root, dir), upstream: changed.map(({ path }) => path), why, content: content(dir) }));
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
