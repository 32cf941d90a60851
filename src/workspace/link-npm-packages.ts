import { posix } from 'node:path';
import { WorkspaceError } from './workspace-error.js';
import type { WorkspacePackage } from './graph-types.js';

/** One workspace member's package.json, as far as the graph needs it. */
export interface NpmManifest {
  dir: string;
  name: string | undefined;
  /** [name, version spec] from dependencies, devDependencies, peerDependencies and optionalDependencies. */
  dependencies: Array<[string, string]>;
}

export const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/**
 * The members with their edges: a dependency names another member by its package name, whatever
 * the spec (`*`, `workspace:^`, `file:../x` …), or points at its folder (`file:`, `link:`,
 * `portal:`, `workspace:../x`), or aliases it (`npm:@acme/x@*`, `workspace:@acme/x@*`).
 */
export function linkNpmPackages(manifests: NpmManifest[]): WorkspacePackage[] {
  const byName = new Map<string, string>();
  for (const manifest of manifests) {
    if (manifest.name === undefined) continue;
    const other = byName.get(manifest.name);
    if (other !== undefined) {
      throw new WorkspaceError(`${manifest.dir}/package.json`, `has the name "${manifest.name}", as ${other}/package.json does; give each workspace package its own name`);
    }
    byName.set(manifest.name, manifest.dir);
  }
  const dirs = new Set(manifests.map((manifest) => manifest.dir));
  return manifests.map((manifest) => {
    const dependsOn = new Set<string>();
    for (const [name, spec] of manifest.dependencies) {
      const target = targetOf(manifest.dir, name, spec, byName, dirs);
      if (target !== undefined && target !== manifest.dir) dependsOn.add(target);
    }
    return { dir: manifest.dir, name: manifest.name ?? manifest.dir, dependsOn: [...dependsOn].sort() };
  });
}

// Relative folders only: absolute ones are rare in a workspace and would need the root to compare.
const PATH_SPEC = /^(?:(?:file|link|portal):(?![/\\])(.+)|workspace:(\.{1,2}(?:[/\\].*)?))$/;
// `workspace:*`, `workspace:^` and `workspace:1.2.0` are ranges, not aliases: a pnpm alias has its range after an `@`.
const NAME = '(?:@[a-z0-9][\\w.~-]*\\/)?[a-z0-9][\\w.~-]*';
const ALIAS = new RegExp(`^(?:npm:(${NAME})(?:@|$)|workspace:(${NAME})@)`, 'i');

function targetOf(dir: string, name: string, spec: string, byName: Map<string, string>, dirs: Set<string>): string | undefined {
  const match = PATH_SPEC.exec(spec.trim());
  const path = match?.[1] ?? match?.[2];
  if (path !== undefined) {
    const target = posix.join(dir, path.replaceAll('\\', '/')).replace(/\/$/, '');
    if (dirs.has(target)) return target;
  }
  const alias = ALIAS.exec(spec.trim());
  return byName.get(alias?.[1] ?? alias?.[2] ?? name);
}
