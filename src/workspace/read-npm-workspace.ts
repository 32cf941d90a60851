import { expandWorkspaceGlobs } from './expand-workspace-globs.js';
import { linkNpmPackages } from './link-npm-packages.js';
import { isRecord, readNpmManifests } from './read-npm-manifests.js';
import { readJsonFile } from './read-text-file.js';
import { WorkspaceError } from './workspace-error.js';
import type { WorkspaceGraph } from './graph-types.js';

/** npm and yarn (classic and berry): the root package.json's `workspaces`, an array or `{ packages: [...] }`. */
export function readNpmWorkspace(root: string, kind: 'npm' | 'yarn'): WorkspaceGraph {
  const manifest = readJsonFile(root, 'package.json');
  if (manifest === undefined) {
    throw new WorkspaceError('package.json', `does not exist at ${root}, so there is no ${kind} workspace to read; read the workspace from the folder that holds the root package.json, or set "workspaces" to the kind this repo uses`);
  }
  const globs = workspaceGlobs(manifest);
  if (globs === undefined && isRecord(manifest) && manifest['workspaces'] !== undefined) {
    throw new WorkspaceError('package.json', '"workspaces" is neither a list of globs nor { "packages": [globs] }; write it as "workspaces": ["packages/*"]');
  }
  if (globs === undefined) {
    throw new WorkspaceError('package.json', `has no "workspaces" list, so it is not an ${kind} workspace; add one (e.g. "workspaces": ["packages/*"]) or set "workspaces" to the kind this repo uses`);
  }
  const dirs = expandWorkspaceGlobs(root, globs);
  return { kind, root, packages: linkNpmPackages(readNpmManifests(root, dirs)) };
}

/** The `workspaces` globs, or undefined when the field is missing or not a list of strings. */
export function workspaceGlobs(manifest: unknown): string[] | undefined {
  if (!isRecord(manifest)) return undefined;
  const field = manifest['workspaces'];
  const list = isRecord(field) ? field['packages'] : field;
  if (!Array.isArray(list) || !list.every((glob) => typeof glob === 'string')) return undefined;
  return list;
}
