import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { filterOutput } from '../../filters/filter-output.js';
import { configStamp, findJsUnits } from './narrow-by-record.js';
import { type ProcessRun, readProcessRun } from './read-v8-coverage.js';
import { saveRuns } from './save-record.js';

// Vitest's default include: the test files a record is kept for (the graph counts the same).
const TEST_FILE = /(?:^|[/\\])[^/\\]*\.(?:test|spec)(?:-d)?\.[cm]?[jt]sx?$/;

// Vitest stops a test file's process with SIGTERM, and a process killed by a signal writes no
// coverage; one that exits by itself may be killed while Node writes it. In vitest's fork workers
// only (its own in vitest 4, tinypool's before), write it as the process exits or gets the signal,
// then die of the signal as before. tinypool probes the CPU count with execSync as it loads: those
// calls are counted, so that they don't read as a test that started a process.
const PRELOAD = `'use strict';
if (/[\\\\/](?:vitest[\\\\/]dist[\\\\/]workers[\\\\/](?:forks|vmForks)|tinypool[\\\\/]dist[\\\\/]entry[\\\\/]process)\\.js$/.test(process.argv[1] || '')) {
  const childProcess = require('node:child_process');
  const execSync = childProcess.execSync;
  const probe = /^(?:cat \\/proc\\/cpuinfo \\| grep "(?:physical|core) id" \\| sort \\| ?uniq \\| wc -l|sysctl -n hw\\.physicalcpu_max)$/;
  let probes = 0;
  childProcess.execSync = function (command, ...rest) {
    if (typeof command === 'string' && probe.test(command)) probes += 1;
    return execSync.call(this, command, ...rest);
  };
  require('node:module').syncBuiltinESMExports();
  let taken = false;
  const take = () => {
    if (taken) return;
    taken = true;
    try {
      if (probes > 0) require('node:fs').writeFileSync(require('node:path').join(process.env.NODE_V8_COVERAGE, 'probes-' + process.pid + '.json'), String(probes));
      require('node:v8').takeCoverage();
    } catch {}
  };
  process.on('exit', take);
  process.once('SIGTERM', () => {
    take();
    if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
  });
}
`;

export interface Recording {
  /** What the run's environment gets: V8 writes each process's coverage under the gate's cache. */
  env: Record<string, string>;
  /** After a passing run, or one whose tests failed (exit 1, `output` its output): the record gains what this run executed. */
  finish: (output?: string) => void;
  /** A run whose tests failed (exit 1) is read too: its failing tests get no record. */
  failedTestsKept?: boolean;
  /** After any other run: its coverage is thrown away, the record kept as it was. */
  discard: () => void;
}

/**
 * Gets a full vitest run ready to record what each test file executes, unless the run's own
 * environment already asks for V8 coverage (c8, a test script's own NODE_V8_COVERAGE).
 */
export function startRecording(cacheDir: string, cwd: string, env: NodeJS.ProcessEnv): Recording | undefined {
  if (env['NODE_V8_COVERAGE'] !== undefined) return undefined;
  // A folder of this run's own: another run of the gate at the same time must not mix its processes in.
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const folder = mkdtempSync(join(cacheDir, 'v8-coverage-'));
  mkdirSync(join(folder, 'raw'));
  const preload = join(folder, 'preload.cjs');
  writeFileSync(preload, PRELOAD);
  const started = Date.now();
  const configs = configStamp(cwd);
  const require = `--require "${preload.replace(/["\\]/g, '\\$&')}"`;
  return {
    env: { NODE_V8_COVERAGE: join(folder, 'raw'), NODE_OPTIONS: [env['NODE_OPTIONS'], require].filter(Boolean).join(' ') },
    finish: (output) => {
      try {
        // A run whose tests failed: only when each failed test file is named, and no error came from outside a test.
        const failed = (output === undefined ? [] : failedTestFiles(output))?.map((file) => resolve(cwd, file));
        if (failed?.every((file) => existsSync(file))) saveRecord(cacheDir, join(folder, 'raw'), cwd, started, configs, new Set(failed));
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
    discard: () => rmSync(folder, { recursive: true, force: true }),
    failedTestsKept: true,
  };
}

/**
 * The test files vitest's output names as failed (relative to its root), when they are as many as
 * its "Test Files  N failed" total says; undefined when they are not, or an unhandled error (which
 * may come from any file, and leave any state behind) is reported.
 */
export function failedTestFiles(output: string): string[] | undefined {
  const text = stripVTControlCharacters(output);
  if (/Unhandled Error|Failed Suites/.test(text)) return undefined;
  const total = /^\s*Test Files\s+(\d+) failed/m.exec(text);
  if (!total) return undefined;
  const files = [...new Set(filterOutput('vitest', text).failures.flatMap((failure) => (failure.file ? [failure.file] : [])))];
  return files.length === Number(total[1]) ? files : undefined;
}

function saveRecord(cacheDir: string, rawDir: string, cwd: string, started: number, configs: string, failed: ReadonlySet<string>): void {
  const ours = [cacheDir, realpathSync(cacheDir)];
  const real = new Map<string, string | undefined>();
  // A workspace package loaded through a node_modules link is the project's own code: by its real path.
  const projectPath = (path: string) => {
    // Vite's virtual modules (`/@vite/env`) are no file: what they hold comes from the config and .env files.
    if (path.startsWith('/@')) return undefined;
    if (!real.has(path)) {
      let found: string | undefined = path;
      if (path.split(sep).includes('node_modules')) {
        try {
          found = realpathSync(path);
        } catch {
          found = undefined;
        }
      }
      real.set(path, found === undefined || found.split(sep).includes('node_modules') || ours.some((dir) => found.startsWith(dir + sep)) ? undefined : found);
    }
    return real.get(path);
  };
  // V8 names each file coverage-<pid>-<time>-<n>.json: a process may write more than one.
  const byProcess = new Map<string, string[]>();
  for (const name of readdirSync(rawDir).filter((file) => file.startsWith('coverage-') && file.endsWith('.json'))) {
    const pid = name.split('-')[1] ?? name;
    byProcess.set(pid, [...(byProcess.get(pid) ?? []), name]);
  }
  const runs: ProcessRun[] = [];
  for (const [pid, names] of byProcess) {
    try {
      const files = names.map((name) => JSON.parse(readFileSync(join(rawDir, name), 'utf8')));
      const run = readProcessRun(files, projectPath, (path) => TEST_FILE.test(path), readProbes(join(rawDir, `probes-${pid}.json`)));
      // A failed test file's run may have stopped short of what it executes when it passes: no record.
      runs.push(run.kind === 'test' && isFailed(run.test, failed) ? { kind: 'other', tests: [run.test] } : run);
    } catch {
      // A file V8 was still writing when the process was killed: its test has no new record.
    }
  }
  saveRuns(cacheDir, runs, started, findJsUnits(cwd), configs);
}

function isFailed(test: string, failed: ReadonlySet<string>): boolean {
  if (failed.has(test)) return true;
  try {
    return [...failed].some((file) => realpathSync(file) === test);
  } catch {
    return false;
  }
}

function readProbes(file: string): number {
  try {
    const count = Number(readFileSync(file, 'utf8'));
    return Number.isInteger(count) && count > 0 ? count : 0;
  } catch {
    return 0;
  }
}
