import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { readBaseVersions } from '../snapshot/base-versions.js';
import { findLocalEnv } from '../runner/project-env.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { environmentChanges, fingerprintEnvironment } from '../start/environment.js';
import type { StartState } from '../start/start-state.js';
import type { GateSelection } from './select-gates.js';

/** Where the change started: the versions its files are compared with. */
export interface ChangeBase {
  root: string;
  base: Snapshot | undefined;
  start: StartState | undefined;
  env: NodeJS.ProcessEnv;
  /** The project folder, whose installed packages are part of the environment (default: root). */
  projectDir?: string;
}

/** A larger change is rarely comments alone, and reading every base version would cost more than it saves. */
export const MAX_FILES = 40;
const MAX_BYTES = 1024 * 1024;

/**
 * Whether the gates run with what they ran with at the turn's start: a turn that installed or
 * upgraded packages may fail where its code did not change. Unknown (no start captured): as the base.
 */
export function environmentKept(change: ChangeBase): boolean {
  if (change.start === undefined) return true;
  let kept = keptFor.get(change);
  if (kept === undefined) {
    const now = fingerprintEnvironment([...new Set([change.root, change.projectDir ?? change.root])], change.env);
    kept = environmentChanges(change.start.environment, now).length === 0;
    keptFor.set(change, kept);
  }
  return kept;
}

// Read once a stop: a few directory listings, only when some file might be the same code.
const keptFor = new WeakMap<ChangeBase, boolean>();

/** A changed file's two versions, for the rules that compare them. */
export interface FileVersions {
  /** relative to the repository root */
  path: string;
  before: string;
  after: string;
}

/**
 * Each selection with its changed files' versions at the base and now — only those whose every file
 * has both (one added or deleted is no comparison) — read once for all; undefined when there is
 * nothing to compare: no base, no file, too many, or an environment the turn changed.
 */
export async function changedVersions(
  selections: GateSelection[],
  change: ChangeBase,
  pathsOf: (selection: GateSelection) => string[] = (selection) => repoPathsOf(selection, change.root),
): Promise<Array<{ selection: GateSelection; files: FileVersions[] }> | undefined> {
  const { base } = change;
  const paths = [...new Set(selections.flatMap(pathsOf))];
  if (base === undefined || paths.length === 0 || paths.length > MAX_FILES || !environmentKept(change)) return undefined;
  const versions = await readBaseVersions(change.root, base, change.start, paths);
  return selections.flatMap((selection) => {
    const files = pathsOf(selection).flatMap((path) => {
      const before = versions.get(path);
      const after = readNow(join(change.root, path));
      return typeof before === 'string' && after !== undefined ? [{ path, before, after }] : [];
    });
    return files.length === pathsOf(selection).length ? [{ selection, files }] : [];
  });
}

/** A selection's changed files, relative to the repository root. */
export function repoPathsOf(selection: GateSelection, root: string): string[] {
  return selection.files.map((file) => toRepoPath(root, resolve(selection.gate.cwd, file)));
}

export function readNow(path: string): string | undefined {
  try {
    return statSync(path).size > MAX_BYTES ? undefined : readFileSync(path, 'utf8');
  } catch {
    return undefined; // deleted, or unreadable: not the same
  }
}

/** The project's Python, whose grammar its tools run under. */
export function pythonOf(selection: GateSelection, env: NodeJS.ProcessEnv): string {
  const venv = findLocalEnv(selection.gate.cwd, { ...env, ...selection.gate.env });
  const python = venv ? join(venv.bin, process.platform === 'win32' ? 'python.exe' : 'python') : undefined;
  return python !== undefined && existsSync(python) ? python : process.platform === 'win32' ? 'python' : 'python3';
}

/** "a.ts", or "a.ts and 2 more". */
export function nameFiles(files: string[]): string {
  const first = files[0] ?? '';
  return files.length > 1 ? `${first} and ${files.length - 1} more` : first;
}

export function toRepoPath(root: string, path: string): string {
  return toPosix(relative(root, path));
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
