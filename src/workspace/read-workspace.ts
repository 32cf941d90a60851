import { detectWorkspaceKind } from './detect-workspace-kind.js';
import { readCargoWorkspace } from './read-cargo-workspace.js';
import { readGoWorkspace } from './read-go-workspace.js';
import { readNpmWorkspace } from './read-npm-workspace.js';
import { readPnpmWorkspace } from './read-pnpm-workspace.js';
import { readUvWorkspace } from './read-uv-workspace.js';
import { WorkspaceError } from './workspace-error.js';
import type { WorkspaceGraph, WorkspaceKind } from './graph-types.js';

/**
 * The packages of the workspace at `root` (absolute) and their dependencies on each other. Only
 * cargo spawns (`cargo metadata`, with `env`); the others read files. Throws a WorkspaceError
 * naming the file when it is missing, unreadable or names no workspace.
 */
export async function readWorkspace(root: string, kind: WorkspaceKind | 'auto', options: { env?: NodeJS.ProcessEnv } = {}): Promise<WorkspaceGraph> {
  const chosen = kind === 'auto' ? detectWorkspaceKind(root) : kind;
  switch (chosen) {
    case 'npm':
    case 'yarn':
      return readNpmWorkspace(root, chosen);
    case 'pnpm':
      return readPnpmWorkspace(root);
    case 'go':
      return readGoWorkspace(root);
    case 'cargo':
      return readCargoWorkspace(root, options.env);
    case 'uv':
      return readUvWorkspace(root);
    case undefined:
      throw new WorkspaceError(
        root,
        'holds no workspace gate knows: no pnpm-workspace.yaml with packages, package.json with workspaces, go.work, Cargo.toml with [workspace], or pyproject.toml with [tool.uv.workspace]; set "workspaces" to the kind this repo uses, or remove it',
      );
  }
}
