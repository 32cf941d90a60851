/** What a workspace reader returns: shared by the readers and the graph's users, imported by none of them back. */
export type WorkspaceKind = 'npm' | 'pnpm' | 'yarn' | 'go' | 'cargo' | 'uv';

export interface WorkspacePackage {
  /** Relative to the workspace root, posix separators, never '' (a root package is not a member). */
  dir: string;
  /** The npm package name, Go module path, crate name or Python project name (normalised); the dir when there is no name. */
  name: string;
  /** Dirs of the workspace packages it depends on directly, any dependency kind (dev, peer, optional too). */
  dependsOn: string[];
}

export interface WorkspaceGraph {
  kind: WorkspaceKind;
  /** Absolute. */
  root: string;
  packages: WorkspacePackage[];
  /**
   * A uv workspace's root project, when members depend on it (no member itself: its files are the
   * root's). A change to its sources reaches those members and their dependents.
   */
  rootProject?: { name: string; sources: string[]; dependents: string[] };
}
