import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import { packageRoot } from '../../package/package-root.js';
import { hash as hashOf, type ModuleUnits } from './function-units.js';
import { configStamp } from './narrow-by-record.js';
import { PYTHON_CONFIG, type PluginRecord, readPluginRecord } from './pytest-runs.js';
import type { Recording } from './record-run.js';
import { saveRuns } from './save-record.js';

/**
 * Gets a full pytest run ready to record what each test file executes: gate's plugin
 * (python/stopgate_record.py) is loaded by `-p` in PYTEST_ADDOPTS, from its own folder on
 * PYTHONPATH, and writes one file under the gate's cache. Nothing is written into the project.
 */
export function startPytestRecording(cacheDir: string, cwd: string, env: NodeJS.ProcessEnv): Recording | undefined {
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
        if (written) saveRecord(cacheDir, written, started, configs);
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

/** Whether a test file's text names another's module (`from test_util import make`): it may import it. Unreadable: it may. */
function namesModule(test: string, other: string): boolean {
  try {
    return readFileSync(test, 'utf8').includes(basename(other, '.py'));
  } catch {
    return true;
  }
}

function saveRecord(cacheDir: string, written: PluginRecord, started: number, configs: string): void {
  const units = new Map<string, ModuleUnits>();
  for (const file of Object.values(written.files)) if (file) units.set(file.hash, { skeleton: file.skeleton, units: file.units });
  saveRuns(cacheDir, written.runs, started, (_path, text) => units.get(hashOf(text)), configs);
}
