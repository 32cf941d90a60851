import { fileURLToPath } from 'node:url';
import { sourceName } from './function-units.js';

/** One script of a `NODE_V8_COVERAGE` file (https://nodejs.org/api/cli.html#node_v8_coveragedir). */
interface V8Script {
  url: string;
  functions: Array<{ functionName: string; ranges: Array<{ count: number }> }>;
}

/** What one test file's process ran: the names of the functions it called in each project module (`all`: names the record can't read). */
/** What a test file's tests executed one by one (pytest): what runs for all of them, and each test's own (null: no record). */
export interface ByTest {
  common: Map<string, Set<string> | 'all'>;
  items: Map<string, Map<string, Set<string> | 'all'> | null>;
}

export type ProcessRun =
  | { kind: 'test'; test: string; modules: Map<string, Set<string> | 'all'>; byTest?: ByTest }
  /** No single test file (the main process, a pool that shares processes), or a test that started processes: no record. */
  | { kind: 'other'; tests: string[] };

// Node's functions that start another process or thread: code run there is in no file of this one.
const STARTS = new Map([
  ['node:child_process', /^(?:spawn|spawnSync|fork|exec|execSync|execFile|execFileSync)$/],
  ['node:internal/child_process', /^(?:ChildProcess\.spawn|spawnSync)$/],
  ['node:internal/worker', /^Worker$/],
]);

/**
 * Reads one process's coverage (the files V8 wrote for it): the project's files it loaded
 * (`projectPath`: the path a changed file would have, or undefined for an installed package), and
 * among them the test file. A process that loaded several test files, or started a child process
 * or a worker thread (what runs there is recorded nowhere gate reads it) other than the `probes`
 * calls of tinypool's CPU count, gives no record for its tests.
 */
export function readProcessRun(files: unknown[], projectPath: (path: string) => string | undefined, isTest: (path: string) => boolean, probes = 0): ProcessRun {
  const scripts = files.flatMap((json) => (json as { result?: unknown } | null)?.result ?? []);
  if (!Array.isArray(scripts)) return { kind: 'other', tests: [] };
  const modules = new Map<string, Set<string> | 'all'>();
  const calls = new Map<string, number>();
  for (const script of scripts as V8Script[]) {
    const starts = STARTS.get(script.url);
    for (const fn of starts ? script.functions : []) {
      const key = `${script.url} ${fn.functionName}`;
      if (starts?.test(fn.functionName)) calls.set(key, (calls.get(key) ?? 0) + (fn.ranges[0]?.count ?? 0));
    }
    if (!script.url.startsWith('file:')) continue;
    // A query (`?raw`, `?url`) loads the file as something else than its code: any change to it counts.
    const [plain = '', query] = script.url.split('?');
    let path: string | undefined;
    try {
      path = projectPath(fileURLToPath(plain));
    } catch {
      continue;
    }
    if (path === undefined) continue;
    const names = query === undefined ? executedNames(script) : 'all';
    const had = modules.get(path);
    modules.set(path, had === 'all' || names === 'all' ? 'all' : new Set([...(had ?? []), ...names]));
  }
  // tinypool's CPU probe (`execSync('cat /proc/cpuinfo …')`, counted by the preload) runs no project code.
  const allowed = (key: string) => (/ (?:execSync|spawnSync)$/.test(key) ? probes : 0);
  const started = [...calls].some(([key, count]) => count > allowed(key));
  const tests = [...modules.keys()].filter(isTest);
  const [test] = tests;
  if (tests.length !== 1 || test === undefined || started) return { kind: 'other', tests };
  return { kind: 'test', test, modules };
}

function executedNames(script: V8Script): Set<string> {
  const names = new Set<string>();
  for (const fn of script.functions) {
    const name = sourceName(fn.functionName);
    if (name !== undefined && ran(fn)) names.add(name);
  }
  return names;
}

function ran(fn: V8Script['functions'][number]): boolean {
  return (fn.ranges[0]?.count ?? 0) > 0;
}
