import { execFile } from 'node:child_process';
import { posix, relative, sep } from 'node:path';
import { parseCargoMetadata, type CargoWorkspace } from '../fast/parse-cargo-metadata.js';
import { readTextFile } from './read-text-file.js';
import { WorkspaceError } from './workspace-error.js';
import type { WorkspaceGraph, WorkspacePackage } from './graph-types.js';

const TIMEOUT_MS = 30_000;
const FILE = 'Cargo.toml';

/**
 * A cargo workspace, from `cargo metadata --no-deps`: cargo itself expands `members` globs,
 * `exclude`, and `workspace = true` dependencies, which a hand-written TOML reading would not.
 * An edge is a path dependency on another member, of any kind (normal, dev, build). A root
 * package (a `[package]` beside `[workspace]`) is no member: its files belong to the root.
 */
export async function readCargoWorkspace(root: string, env: NodeJS.ProcessEnv = process.env): Promise<WorkspaceGraph> {
  const manifest = readTextFile(root, FILE);
  if (manifest === undefined) {
    throw new WorkspaceError(FILE, `does not exist at ${root}, so there is no cargo workspace to read; read the workspace from the folder that holds the root Cargo.toml, or set "workspaces" to the kind this repo uses`);
  }
  if (!hasWorkspaceTable(manifest)) {
    throw new WorkspaceError(FILE, 'has no [workspace] table, so it is a single crate, not a cargo workspace; add [workspace] with members = [...], or set "workspaces" to the kind this repo uses');
  }
  const metadata = await cargoMetadata(root, env);
  let workspace: CargoWorkspace;
  try {
    workspace = parseCargoMetadata(metadata);
  } catch (error) {
    throw new WorkspaceError(FILE, `cargo metadata printed what gate could not read (${error instanceof Error ? error.message : String(error)}); check that cargo metadata --format-version 1 --no-deps works here`);
  }
  return { kind: 'cargo', root, packages: toPackages(workspace) };
}

/** `[workspace]`, or a `[workspace.…]` table, which makes one too. */
export function hasWorkspaceTable(manifest: string): boolean {
  return /^[ \t]*\[[ \t]*workspace[ \t]*[\].]/m.test(manifest);
}

/** Members relative to cargo's workspace root, which is `root` as cargo resolves it (symlinks and all). */
export function toPackages(workspace: CargoWorkspace): WorkspacePackage[] {
  const dirOf = (absolute: string) => relative(workspace.root, absolute).split(sep).join(posix.sep);
  const members = workspace.members.map((member) => ({ ...member, dir: dirOf(member.dir) })).filter((member) => member.dir !== '' && !member.dir.startsWith('..'));
  const dirs = new Set(members.map((member) => member.dir));
  return members
    .map((member) => {
      const dependsOn = member.deps.map((dep) => dirOf(dep.dir)).filter((dir) => dirs.has(dir) && dir !== member.dir);
      return { dir: member.dir, name: member.name, dependsOn: [...new Set(dependsOn)].sort() };
    })
    .sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

// RUSTUP_AUTO_INSTALL=0: reading the graph never downloads a toolchain that rust-toolchain.toml names.
function cargoMetadata(root: string, env: NodeJS.ProcessEnv): Promise<string> {
  const args = ['metadata', '--format-version', '1', '--no-deps', '--offline'];
  return new Promise((resolve, reject) => {
    execFile('cargo', args, { cwd: root, env: { ...env, RUSTUP_AUTO_INSTALL: '0' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: TIMEOUT_MS, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      if ('code' in error && error.code === 'ENOENT') {
        return reject(new WorkspaceError(FILE, 'names a cargo workspace, but cargo was not found on PATH to read it; install Rust (https://rustup.rs) or put cargo on PATH'));
      }
      if (error.killed) return reject(new WorkspaceError(FILE, `cargo metadata took over ${TIMEOUT_MS / 1000} s; run it yourself to see why (a lock held by another cargo?)`));
      const line = stderr.split('\n').find((text) => text.trim() !== '') ?? error.message;
      reject(new WorkspaceError(FILE, `cargo metadata failed: ${line.trim().slice(0, 300)}; fix what it says (run cargo metadata --no-deps here to see it all)`));
    });
  });
}
