import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Failure } from '../filters/filter.js';
import { isBareGoFile } from '../workspace/go-package-dirs.js';

/** What the stop knew of the work tree when it started, and what the tree holds now. */
export interface TreeAtStart {
  /** Repository-relative paths git tracks, plus those untracked (not ignored) when the stop started. */
  known: ReadonlySet<string>;
  /** The paths the turn changed: a finding there always counts. */
  changed: ReadonlySet<string>;
  /** Whether a repository-relative path exists now. */
  exists: (path: string) => boolean;
  /** The folders (absolute) of the package a test id names, for a gate in `cwd`: go test prints its files' bare names (`x_test.go:12:`). */
  packageDirs: (id: string, cwd: string) => string[];
}

/**
 * The files of a failed run's findings that another gate made or removed while it ran, when every
 * finding is in one (`undefined` otherwise, and for a run with no finding that names a file): gates
 * share the work tree, so a full lint started beside vitest's typecheck lints the temp tsconfig
 * vitest writes and deletes. Only such a run is worth running again alone.
 */
export function onlyTransient(failures: Failure[], root: string, cwd: string, tree: TreeAtStart): string[] | undefined {
  if (failures.length === 0) return undefined;
  const files = new Set<string>();
  for (const failure of failures) {
    const file = transientFile(failure, root, cwd, tree);
    if (file === undefined) return undefined;
    files.add(file);
  }
  return [...files].sort();
}

/** The findings in files that appeared or vanished during the run, for a run that also has others: left out of its report. */
export function transientFindings(failures: Failure[], root: string, cwd: string, tree: TreeAtStart): Failure[] {
  return failures.filter((failure) => transientFile(failure, root, cwd, tree) !== undefined);
}

/** The file as the repository names it, if no reading of it is a file the turn changed or one that was there throughout. */
function transientFile(failure: Failure, root: string, cwd: string, tree: TreeAtStart): string | undefined {
  if (failure.file === undefined) return undefined;
  const bare = isBareGoFile(failure.file);
  // The line go names may be a helper's in another package (goldmark's testutil.go): a file of
  // that name anywhere in the tree may be it.
  const paths = bare ? [...readings(failure.file, root, cwd, tree.packageDirs(failure.id, cwd)), ...sameNamed(tree, failure.file)] : readings(failure.file, root, cwd, []);
  if (paths.length === 0) return undefined;
  const steady = (path: string) => tree.changed.has(path) || (tree.known.has(path) && tree.exists(path));
  if (paths.some(steady)) return undefined;
  return paths.find((path) => tree.known.has(path)) ?? paths[0];
}

const byName = new WeakMap<ReadonlySet<string>, Map<string, string[]>>();

/** The paths of `tree` whose last part is `name`. */
function sameNamed(tree: TreeAtStart, name: string): string[] {
  let index = byName.get(tree.known);
  if (index === undefined) {
    index = new Map();
    for (const path of [...tree.known, ...tree.changed]) {
      const base = path.slice(path.lastIndexOf('/') + 1);
      index.set(base, [...(index.get(base) ?? []), path]);
    }
    byName.set(tree.known, index);
  }
  return index.get(name) ?? [];
}

/**
 * Repository-relative readings of a printed path: from its package's folders (go test, issue 38:
 * `parser_test.go` of package ./parser is no file at the root), from the gate's cwd, as absolute,
 * and with a leading slash meaning the cwd (biome).
 */
function readings(file: string, root: string, cwd: string, packageDirs: string[]): string[] {
  const absolute = isAbsolute(file) ? [file, resolve(cwd, file.replace(/^\/+/, ''))] : [...packageDirs.map((dir) => resolve(dir, file)), resolve(cwd, file)];
  return absolute.map((path) => relative(root, path)).filter((path) => path !== '' && !path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path)).map((path) => path.split(sep).join('/'));
}
