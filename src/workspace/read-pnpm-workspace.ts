import { expandWorkspaceGlobs } from './expand-workspace-globs.js';
import { linkNpmPackages } from './link-npm-packages.js';
import { parsePnpmWorkspacePackages } from './parse-pnpm-workspace.js';
import { readNpmManifests } from './read-npm-manifests.js';
import { readTextFile } from './read-text-file.js';
import { WorkspaceError } from './workspace-error.js';
import type { WorkspaceGraph } from './graph-types.js';

const FILE = 'pnpm-workspace.yaml';

/** pnpm: the `packages:` globs of pnpm-workspace.yaml, and each member's package.json. */
export function readPnpmWorkspace(root: string): WorkspaceGraph {
  const text = readTextFile(root, FILE);
  if (text === undefined) {
    throw new WorkspaceError(FILE, `does not exist at ${root}, so there is no pnpm workspace to read; read the workspace from the folder that holds it, or set "workspaces" to the kind this repo uses`);
  }
  const globs = readGlobs(text);
  if (globs === undefined) {
    throw new WorkspaceError(FILE, `has no "packages:" list, so pnpm treats the repo as a single package; add one (e.g. packages: ['packages/*']) or set "workspaces" to the kind this repo uses`);
  }
  return { kind: 'pnpm', root, packages: linkNpmPackages(readNpmManifests(root, expandWorkspaceGlobs(root, globs))) };
}

function readGlobs(text: string): string[] | undefined {
  try {
    return parsePnpmWorkspacePackages(text);
  } catch (error) {
    throw new WorkspaceError(FILE, `${error instanceof Error ? error.message : String(error)}; write "packages:" as a YAML list of quoted globs, one "- 'glob'" per line`);
  }
}
