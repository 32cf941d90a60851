import { join, relative, sep } from 'node:path';
import type { Filtered } from '../filters/filter.js';
import { goPackageDirs, isBareGoFile } from '../workspace/go-package-dirs.js';

/**
 * go test names a failing test's file by its bare name (`x_test.go:12:`), mostly in the folder of
 * the package that failed. Each such failure's file that is there is said from the gate's folder
 * instead (`sub/x_test.go`, as other tools' are), and its item gets the package's folders, from
 * which placeTaskPaths names such files in the report's lines (src/report/place-task-paths.ts).
 */
export function placeGoTestFiles(filtered: Filtered, root: string, cwd: string, isFile: (path: string) => boolean): Filtered {
  if (!filtered.failures.some((failure) => isBareGoFile(failure.file))) return filtered;
  const itemDirs = filtered.items.map((_, index) => [...(filtered.itemDirs?.[index] ?? [])]);
  const failures = filtered.failures.map((failure, index) => {
    if (!isBareGoFile(failure.file)) return failure;
    const dirs = goPackageDirs(root, cwd, failure.id);
    const item = filtered.itemOf?.[index];
    if (item !== undefined && item >= 0) itemDirs[item]?.push(...dirs.filter((dir) => !itemDirs[item]?.includes(dir)));
    const file = failure.file;
    // Not there (a helper's line in another package, as goldmark's testutil.go, or a file gone): as printed.
    const path = dirs.map((dir) => join(dir, file)).find(isFile);
    return path === undefined ? failure : { ...failure, file: relative(cwd, path).split(sep).join('/') };
  });
  return { ...filtered, failures, itemDirs };
}
