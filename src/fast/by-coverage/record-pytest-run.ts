import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { basename, delimiter, join, sep } from 'node:path';
import { packageRoot } from '../../package/package-root.js';
import { hash as hashOf, type ModuleUnits } from './function-units.js';
import { configStamp } from './narrow-by-record.js';
import { PYTHON_CONFIG, type PluginRecord, readPluginRecord } from './pytest-runs.js';
import type { ProcessRun } from './read-v8-coverage.js';
import type { Recording } from './record-run.js';
import { saveRuns } from './save-record.js';

/**
 * Gets a full pytest run ready to record what each test file executes: gate's plugin
 * (python/stopgate_record.py) is loaded by `-p` in PYTEST_ADDOPTS, from its own folder on
 * PYTHONPATH, and writes one file under the gate's cache. Nothing is written into the project.
 * `standsFor`: the run is on a copy of the work tree's folder of that name (the start's evidence,
 * gathered while the agent works): the record names the work tree's files, hashed as the copy had them.
 */
export function startPytestRecording(cacheDir: string, cwd: string, env: NodeJS.ProcessEnv, standsFor?: string): Recording | undefined {
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const folder = mkdtempSync(join(cacheDir, 'pytest-record-'));
  const out = join(folder, 'record.json');
  const started = Date.now();
  const configs = configStamp(cwd, PYTHON_CONFIG);
  const plugins = join(packageRoot(), 'python');
  return {
    env: {
      STOPGATE_RECORD_OUT: out,
      STOPGATE_RECORD_ROOT: cwd,
      PYTHONPATH: [plugins, env['PYTHONPATH']].filter(Boolean).join(delimiter),
      PYTEST_ADDOPTS: [env['PYTEST_ADDOPTS'], '-p stopgate_record'].filter(Boolean).join(' '),
    },
    finish: () => {
      try {
        const written = readPluginRecord(readFileSync(out, 'utf8'), namesModule);
        if (!written) return;
        if (standsFor === undefined) return saveRecord(cacheDir, written, started, configs);
        // A config the copy lacks (an ignored .env) or the agent has edited since: another config's
        // record, which would replace the work tree's own. None is written.
        if (configStamp(standsFor, PYTHON_CONFIG) !== configs) return;
        const moved = movedPaths(realpathSync(cwd), realpathSync(standsFor));
        saveRecord(cacheDir, { ...written, runs: written.runs.map(moved.run) }, started, configs, moved.back);
      } catch {
        // No file: the plugin did not run (xdist, a runner that drops the environment). The record stays.
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
    discard: () => rmSync(folder, { recursive: true, force: true }),
    failedTestsKept: true,
  };
}

/** A copy's runs as the work tree's (`run`), and where a work tree path's copy is (`back`); the plugin writes real paths. */
function movedPaths(copy: string, live: string) {
  const swap = (path: string, from: string, to: string) => (path.startsWith(`${from}${sep}`) ? `${to}${path.slice(from.length)}` : path);
  const to = (path: string) => swap(path, copy, live);
  const modules = <T>(map: Map<string, T>) => new Map([...map].map(([path, names]) => [to(path), names] as const));
  const run = (run: ProcessRun): ProcessRun => {
    if (run.kind === 'other') return { kind: 'other', tests: run.tests.map(to) };
    const byTest = run.byTest && { common: modules(run.byTest.common), items: new Map([...run.byTest.items].map(([id, own]) => [id, own && modules(own)] as const)) };
    return byTest ? { kind: 'test', test: to(run.test), modules: modules(run.modules), byTest } : { kind: 'test', test: to(run.test), modules: modules(run.modules) };
  };
  return { run, back: (path: string) => swap(path, live, copy) };
}

/** Whether a test file's text names another's module (`from test_util import make`): it may import it. Unreadable: it may. */
function namesModule(test: string, other: string): boolean {
  try {
    return readFileSync(test, 'utf8').includes(basename(other, '.py'));
  } catch {
    return true;
  }
}

function saveRecord(cacheDir: string, written: PluginRecord, started: number, configs: string, fileOf?: (path: string) => string): void {
  const units = new Map<string, ModuleUnits>();
  for (const file of Object.values(written.files)) if (file) units.set(file.hash, { skeleton: file.skeleton, units: file.units });
  saveRuns(cacheDir, written.runs, started, (_path, text) => units.get(hashOf(text)), configs, fileOf);
}
