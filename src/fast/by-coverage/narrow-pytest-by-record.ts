import { runPython } from '../run-python.js';
import { join } from 'node:path';
import { packageRoot } from '../../package/package-root.js';
import type { ModuleUnits } from './function-units.js';
import { hash } from './function-units.js';
import { configStamp, type Narrowed, narrowWithRecord, readRecord, readText } from './narrow-by-record.js';
import { PYTHON_CONFIG } from './pytest-runs.js';

const TIMEOUT_MS = 20_000;

/**
 * narrowByRecord for pytest: the test files among `tests` (absolute, by real path, chosen by the
 * import graph) that executed a changed function on the gate's last full run, or that the record
 * can't vouch for, and in them the tests that executed none (to leave out). The modules changed since the record are cut into functions by `python`,
 * the project's interpreter (python/stopgate_units.py), as the run's plugin cut them.
 */
export async function narrowPytestByRecord(cacheDir: string, root: string, tests: string[], changed: string[], python: string): Promise<Narrowed | undefined> {
  const record = readRecord(cacheDir, configStamp(root, PYTHON_CONFIG));
  if (!record) return undefined;
  const texts = new Map<string, string | undefined>();
  const read = (path: string) => {
    if (!texts.has(path)) texts.set(path, readText(path));
    return texts.get(path);
  };
  const differ = new Set<string>();
  for (const test of tests) {
    for (const [path, module] of Object.entries(record.tests[test]?.loaded ?? {})) {
      const text = read(path);
      if (text !== undefined && hash(text) !== module.hash) differ.add(path);
    }
  }
  const cut = await cutModules(python, [...differ], root);
  const findUnits = (path: string, text: string) => {
    const found = cut.get(path);
    return found?.hash === hash(text) ? found.units : undefined;
  };
  return narrowWithRecord(record, root, tests, changed, read, findUnits);
}

/** Each module cut into units by the project's Python, with the hash of the text it cut; none when Python can't be run. */
function cutModules(python: string, paths: string[], cwd: string): Promise<Map<string, { hash: string; units: ModuleUnits }>> {
  const none = new Map<string, { hash: string; units: ModuleUnits }>();
  if (paths.length === 0) return Promise.resolve(none);
  const script = join(packageRoot(), 'python', 'stopgate_units.py');
  return runPython(python, [script], JSON.stringify(paths), cwd, TIMEOUT_MS).then((stdout) => (stdout === undefined ? none : readCut(stdout)));
}

function readCut(stdout: string): Map<string, { hash: string; units: ModuleUnits }> {
  const found = new Map<string, { hash: string; units: ModuleUnits }>();
  try {
    const parsed = JSON.parse(stdout) as Record<string, { hash: string; skeleton: string; units: ModuleUnits['units'] } | null>;
    for (const [path, file] of Object.entries(parsed)) if (file) found.set(path, { hash: file.hash, units: { skeleton: file.skeleton, units: file.units } });
  } catch {
    // not an answer: nothing is cut, and every change counts as one outside functions
  }
  return found;
}
