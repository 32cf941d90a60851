import type { ByTest, ProcessRun } from './read-v8-coverage.js';

/** What changes how every test runs without being a module a test loads: pytest's and the project's configs, lockfiles, .env. */
export const PYTHON_CONFIG = /^(?:pyproject\.toml|setup\.cfg|setup\.py|pytest\.ini|\.pytest\.ini|tox\.ini|requirements[\w.-]*\.(?:txt|in)|uv\.lock|poetry\.lock|pdm\.lock|Pipfile(?:\.lock)?|\.python-version|\.env(?:\.[\w-]+)?)$/;

type Names = string[] | 'all';

/** A module as the plugin cut it (python/stopgate_units.py): its bytes' hash, skeleton and units. */
interface PluginFile {
  hash: string;
  skeleton: string;
  units: Array<{ name: string; body: string }>;
}

export interface PluginRecord {
  runs: ProcessRun[];
  /** Each project file the run executed, cut into units (null: it could not be read or parsed). */
  files: Record<string, PluginFile | null>;
}

/**
 * The file python/stopgate_record.py writes, as the runs of the record: each test file's own
 * functions joined with the shared ones (collection, imports, wider fixtures), which any test may
 * rely on; a test file that started a process is one without a record. Another test file's module
 * code ran at collection, in the shared part, for its own sake: it counts for a test file only when
 * `canImport(test, other)` says the test can import it. Undefined: not that file.
 */
export function readPluginRecord(text: string, canImport: (test: string, other: string) => boolean = () => true): PluginRecord | undefined {
  let json: { shared?: unknown; tests?: unknown; items?: unknown; others?: unknown; files?: unknown };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    return undefined;
  }
  const shared = namesByFile(json.shared);
  const tests = isObject(json.tests) ? json.tests : undefined;
  if (!shared || !tests || !Array.isArray(json.others) || !isObject(json.files)) return undefined;
  const others = json.others.filter((test): test is string => typeof test === 'string');
  const testFiles = new Set([...Object.keys(tests), ...others]);
  const runs: ProcessRun[] = [{ kind: 'other', tests: others }];
  for (const [test, own] of Object.entries(tests)) {
    const names = namesByFile(own);
    if (!names) {
      runs.push({ kind: 'other', tests: [test] });
      continue;
    }
    const modules = new Map<string, Set<string> | 'all'>([[test, new Set()]]);
    const reached = shared.filter(([path]) => !testFiles.has(path) || path === test || canImport(test, path));
    for (const [path, list] of [...reached, ...names]) {
      const had = modules.get(path);
      modules.set(path, had === 'all' || list === 'all' ? 'all' : new Set([...(had ?? []), ...list]));
    }
    const items = isObject(json.items) ? json.items[test] : undefined;
    const byTest = isObject(items) ? readByTest(items, reached, names) : undefined;
    runs.push(byTest ? { kind: 'test', test, modules, byTest } : { kind: 'test', test, modules });
  }
  return { runs, files: json.files as PluginRecord['files'] };
}

/**
 * A test file's tests one by one: each test's own functions (null: it failed or started a process),
 * and what runs for all of them — the shared part it reaches, and what its file ran outside any one
 * test (which no test's own names hold).
 */
function readByTest(items: Record<string, unknown>, reached: Array<[string, Names]>, own: Array<[string, Names]>): ByTest | undefined {
  const byId: ByTest['items'] = new Map();
  const ran = new Map<string, Set<string> | 'all'>();
  for (const [id, value] of Object.entries(items)) {
    if (value === null) {
      byId.set(id, null);
      continue;
    }
    const names = namesByFile(value);
    if (!names) return undefined;
    byId.set(id, new Map(names.map(([path, list]) => [path, list === 'all' ? 'all' : new Set(list)])));
    for (const [path, list] of names) ran.set(path, add(ran.get(path), list));
  }
  const common = new Map<string, Set<string> | 'all'>();
  for (const [path, list] of reached) common.set(path, add(common.get(path), list));
  for (const [path, list] of own) {
    const byTests = ran.get(path);
    const left = byTests === 'all' ? [] : list === 'all' ? 'all' : list.filter((name) => !byTests?.has(name));
    if (left === 'all' || left.length > 0) common.set(path, add(common.get(path), left));
  }
  return { common, items: byId };
}

function add(set: Set<string> | 'all' | undefined, list: Names): Set<string> | 'all' {
  return set === 'all' || list === 'all' ? 'all' : new Set([...(set ?? []), ...list]);
}

function namesByFile(value: unknown): Array<[string, Names]> | undefined {
  if (!isObject(value)) return undefined;
  const entries = Object.entries(value);
  const valid = entries.every(([, names]) => names === 'all' || (Array.isArray(names) && names.every((name) => typeof name === 'string')));
  return valid ? (entries as Array<[string, Names]>) : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
