import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parsePnpmWorkspacePackages } from './parse-pnpm-workspace.js';
import { hasWorkspaceTable } from './read-cargo-workspace.js';
import { isRecord } from './read-npm-manifests.js';
import { workspaceGlobs } from './read-npm-workspace.js';
import { hasUvWorkspace } from './read-uv-workspace.js';
import { readJsonFile, readTextFile } from './read-text-file.js';
import type { WorkspaceKind } from './graph-types.js';

/**
 * The workspace kind of `root`, from its files alone, first match wins: pnpm-workspace.yaml with
 * a packages list (pnpm ignores package.json's workspaces), package.json workspaces (yarn when a
 * yarn.lock, .yarnrc.yml or `packageManager: yarn@…` says so, else npm), go.work, Cargo.toml
 * with [workspace], pyproject.toml with [tool.uv.workspace] (an unreadable one: a single project). A file it can't read counts as naming its kind, so that reading it says what is wrong.
 */
export function detectWorkspaceKind(root: string): WorkspaceKind | undefined {
  if (isPnpmWorkspace(root)) return 'pnpm';
  const manifest = tryRead(() => readJsonFile(root, 'package.json'));
  if (manifest === 'unreadable' || workspaceGlobs(manifest) !== undefined) return isYarn(root, manifest) ? 'yarn' : 'npm';
  if (existsSync(join(root, 'go.work'))) return 'go';
  const cargo = tryRead(() => readTextFile(root, 'Cargo.toml'));
  if (cargo === 'unreadable' || (cargo !== undefined && hasWorkspaceTable(cargo))) return 'cargo';
  const pyproject = tryRead(() => readTextFile(root, 'pyproject.toml'));
  if (pyproject !== undefined && pyproject !== 'unreadable' && hasUvWorkspace(pyproject)) return 'uv';
  return undefined;
}

function isPnpmWorkspace(root: string): boolean {
  const packages = tryRead(() => {
    const text = readTextFile(root, 'pnpm-workspace.yaml');
    return text === undefined ? undefined : parsePnpmWorkspacePackages(text);
  });
  return packages !== undefined;
}

function isYarn(root: string, manifest: unknown): boolean {
  const packageManager = isRecord(manifest) ? manifest['packageManager'] : undefined;
  if (typeof packageManager === 'string') return packageManager.startsWith('yarn@');
  return existsSync(join(root, 'yarn.lock')) || existsSync(join(root, '.yarnrc.yml'));
}

function tryRead<T>(read: () => T): T | 'unreadable' {
  try {
    return read();
  } catch {
    return 'unreadable';
  }
}
