import type { ProcessRun } from './read-v8-coverage.js';

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
  let json: { shared?: unknown; tests?: unknown; others?: unknown; files?: unknown };
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
    runs.push({ kind: 'test', test, modules });
  }
  return { runs, files: json.files as PluginRecord['files'] };
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
