/** A package (Turborepo) or project (Nx): its name and its folder, relative to the workspace root. */
export interface WorkspaceUnit {
  name: string;
  /** `/`-separated, no trailing slash; `.` for a project at the root. */
  dir: string;
}

export type Owners = { kind: 'owned'; units: Set<WorkspaceUnit> } | { kind: 'unowned'; file: string };

/**
 * The units holding the changed files: for each file the one whose folder is the nearest (the
 * longest that holds it), as Nx and Turborepo themselves assign a file. A file in none of them
 * stops the search: the caller plans the full run.
 */
export function findOwners(files: readonly string[], units: readonly WorkspaceUnit[]): Owners {
  const byLength = [...units].sort((a, b) => b.dir.length - a.dir.length);
  const owned = new Set<WorkspaceUnit>();
  for (const file of files) {
    const owner = byLength.find((unit) => unit.dir === '.' || file.startsWith(`${unit.dir}/`));
    if (!owner) return { kind: 'unowned', file };
    owned.add(owner);
  }
  return { kind: 'owned', units: owned };
}

/** `packages/lib/`, `./packages/lib`, `packages\lib` → `packages/lib`; the root → `.`. */
export function normalizeDir(dir: string): string {
  const posix = dir.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  return posix === '' ? '.' : posix;
}
