import { existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative } from 'node:path';
import picomatch from 'picomatch';
import { activateProjectEnv } from '../runner/activate-project-env.js';
import { envCacheFile } from '../runner/ask-env-manager.js';
import { leaveOutTests } from './by-coverage/leave-out-tests.js';
import { narrowPytestByRecord } from './by-coverage/narrow-pytest-by-record.js';
import { fullRunFirst, type FastPlan, type FastInput, type Planner } from './planner.js';
import { findTestmon } from './find-testmon.js';
import { parentOf } from './python-module-graph.js';
import { listNames } from './reach-dependents.js';
import { readPytestConfig, type PytestConfig } from './read-pytest-config.js';
import type { PythonSource } from './parse-python-imports.js';
import { readPythonProject } from './read-python-project.js';
import { selectPythonTests } from './select-python-tests.js';

const FILES = '{files}';

/**
 * pytest: the changed test files and the test files that import a changed module, transitively, by
 * an import graph read from the sources (see select-python-tests.ts) — or, with pytest-testmon
 * installed, testmon's own selection from its coverage data, kept under gate's state.
 */
export const planPythonImports: Planner = async (input) => {
  const full = fullRunFirst(input, 'test');
  if (full) return full;
  const { gate, files } = input;
  const outside = files.find((file) => file.startsWith('../') || isAbsolute(file));
  if (outside) return { kind: 'full', why: `${outside} is outside the gate's folder` };

  // testmon counts only where the pytest that runs is: the project's environment, when it has one.
  const cacheFile = input.cacheDir === undefined ? undefined : envCacheFile(dirname(input.cacheDir));
  const { env } = await activateProjectEnv(gate, 'pytest', { ...process.env, ...gate.env }, cacheFile);
  const config = readPytestConfig(gate.cwd, env['PYTEST_ADDOPTS']);
  const data = files.find((file) => !file.endsWith('.py'));
  if (!config.disabled.some((name) => name === 'testmon' || name === 'pytest-testmon') && findTestmon(env)) {
    // testmon's coverage data knows the modules a test ran, not the files it read.
    if (data) return { kind: 'full', why: `${data} changed, and tests may read it as data` };
    // testmon reads its data file's path from the environment only (TESTMON_DATAFILE).
    const run = ['env', 'TESTMON_DATAFILE={cache}/testmondata', ...gate.tier.run.filter((word) => word !== FILES), '--testmon'];
    return { kind: 'fast', run, targets: [], why: 'pytest-testmon: the tests its coverage data ties to what changed since its last run (all of them the first time)' };
  }
  if (config.unsure) return { kind: 'full', why: `${config.unsure}, which gate does not follow` };
  return planFromImports(gate, files, config, input.cacheDir, env);
};

async function planFromImports(gate: FastInput['gate'], files: string[], config: PytestConfig, cacheDir: string | undefined, env: NodeJS.ProcessEnv): Promise<FastPlan> {
  const project = readPythonProject(gate.cwd, config.doctestGlobs);
  if (!project) return { kind: 'full', why: 'too many files in the project to read its imports at a stop' };
  // A data file (a template, a fixture, a locale file …) counts as the modules that may read it.
  const data = files.filter((file) => !file.endsWith('.py'));
  const readers = readersOfData(data, project.sources);
  if ('unsure' in readers) return { kind: 'full', why: `${readers.unsure} changed, and tests may read it as data: it is in no package and no module names it` };
  const changed = [...new Set([...files.filter((file) => file.endsWith('.py')), ...readers.modules])];
  const deleted = changed.filter((file) => !project.sources.has(file) && !existsSync(join(gate.cwd, file)));
  const isTestFile = config.doctestModules ? (name: string) => name !== 'setup.py' && name !== '__main__.py' : (name: string) => /^test_.*\.py$|_test\.py$/.test(name);
  const inTestpaths = config.testpaths.length === 0 ? () => true : picomatch(config.testpaths.flatMap((path) => [path, `${path}/**`]), { dot: true });
  const norecurse = picomatch(config.norecursedirs, { dot: true });
  const collected = (path: string) => inTestpaths(path) && !parentOf(path).split('/').some((dir) => dir !== '' && norecurse(dir));
  const collects = (path: string) => isTestFile(path.slice(path.lastIndexOf('/') + 1)) && collected(path);
  const selection = selectPythonTests({
    paths: [...project.sources.keys(), ...deleted],
    sources: project.sources,
    changed,
    collects,
    alwaysRun: project.doctestFiles.filter(collected),
    scripts: project.scripts,
  });
  if (selection.targets.length === 0) return { kind: 'none', why: `no test imports ${files.length === 1 ? files[0] : `the ${files.length} changed files`}${readers.why}` };
  const kind = config.doctestModules ? 'files' : 'test files';
  const extra = describeExtra(selection.targets.length - selection.reached, selection.opaque);
  // Of those, the test files that executed what changed, by the record of the last passing full run
  // (which knows the functions a test ran, not the files it read: none for a data file).
  const byRecord = cacheDir === undefined || data.length > 0 ? undefined : await narrowByRecord(gate.cwd, cacheDir, selection.targets.filter(collects), files, env);
  const targets = byRecord ? selection.targets.filter((target) => !collects(target) || byRecord.tests.has(target)) : selection.targets;
  const reach = `${selection.targets.length} of ${selection.total} ${kind} import the change${readers.why}${extra}`;
  if (byRecord && targets.length === 0) return { kind: 'none', why: `${reach}; ${byRecord.why}` };
  const leaveOut = byRecord?.leaveOut && cacheDir !== undefined ? leaveOutTests(cacheDir, byRecord.leaveOut) : undefined;
  if (targets.length >= selection.total && !leaveOut) {
    const via = selection.through ? `, ${selection.through.count === selection.reached ? 'all' : selection.through.count} through ${selection.through.file}` : '';
    const cause = selection.reached >= targets.length ? `every one imports the change${via}` : `${selection.reached} import the change${via}${extra}`;
    return { kind: 'full', why: `${targets.length} of ${selection.total} ${kind}: ${cause}${readers.why}` };
  }

  // The full run's config file, and with it its rootdir and conftest.py files: pytest looks for a
  // config from the tests' folder up, and one in between would win.
  const nested = targets.find((target) => ancestorsBelowRoot(target).some((dir) => project.configDirs.has(dir)));
  if (nested && !config.file) return { kind: 'full', why: `${nested} has a pytest config or setup.py of its own above it, which pytest would read instead` };
  const options = nested && config.file ? ['-c', relative(gate.cwd, config.file)] : [];
  const at = gate.tier.run.indexOf(FILES);
  const run = at === -1 ? gate.tier.run : [...gate.tier.run.slice(0, at), ...options, ...gate.tier.run.slice(at)];
  const why = byRecord ? `${reach}; ${byRecord.why}` : `only ${targets.length} of ${selection.total} ${kind}: ${listNames(targets)} (the ones importing the change${readers.why}${extra})`;
  return leaveOut ? { kind: 'fast', run, targets, why, env: leaveOut } : { kind: 'fast', run, targets, why };
}

/** The record's choice among the graph's test files (relative to the gate's folder), or undefined when it has none or keeps them all. */
async function narrowByRecord(cwd: string, cacheDir: string, tests: string[], files: string[], env: NodeJS.ProcessEnv): Promise<{ tests: Set<string>; why: string; leaveOut?: string[] } | undefined> {
  if (tests.length === 0) return undefined;
  const root = realpathSync(cwd);
  const narrowed = await narrowPytestByRecord(cacheDir, root, tests.map((test) => join(root, test)), files.map((file) => join(root, file)), findPython(env));
  return narrowed && { ...narrowed, tests: new Set(narrowed.tests.map((test) => relative(root, test).split('\\').join('/'))) };
}

// The interpreter the gate's pytest runs on: the first python on the project environment's PATH.
function findPython(env: NodeJS.ProcessEnv): string {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    for (const name of ['python', 'python3']) {
      try {
        if (statSync(join(dir, name)).isFile()) return join(dir, name);
      } catch {
        // not here
      }
    }
  }
  return 'python3';
}

/**
 * The modules that stand for changed data files: every module of the package the file lies in (its
 * outermost folder with an __init__.py: a module anywhere in it may read the file beside it, by a
 * path built from __file__ or through the package's resources), and every module whose string
 * literals name the file (`"users.json"`, `"fixtures/users.json"`). A file in no package that no
 * module names is read some way gate can't see: `unsure`, and the run is the full one.
 */
function readersOfData(data: string[], sources: Map<string, PythonSource>): { modules: string[]; why: string } | { unsure: string } {
  const modules = new Set<string>();
  for (const file of data) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const named = [...sources].filter(([, source]) => source.dataNames?.includes(name)).map(([path]) => path);
    const root = outermostPackage(file, sources);
    const inPackage = root === undefined ? [] : [...sources.keys()].filter((path) => path.startsWith(`${root}/`));
    if (named.length === 0 && inPackage.length === 0) return { unsure: file };
    for (const path of [...named, ...inPackage]) modules.add(path);
  }
  if (data.length === 0) return { modules: [], why: '' };
  const what = data.length === 1 ? data[0] : `${data.length} data files`;
  return { modules: [...modules], why: `, ${what} counted as ${data.length === 1 ? 'its' : 'their'} package's modules and those naming ${data.length === 1 ? 'it' : 'them'}` };
}

function outermostPackage(file: string, sources: Map<string, PythonSource>): string | undefined {
  const parts = file.split('/').slice(0, -1);
  for (let depth = 1; depth <= parts.length; depth++) {
    const dir = parts.slice(0, depth).join('/');
    if (sources.has(`${dir}/__init__.py`)) return dir;
  }
  return undefined;
}

// Tests that reach code loading modules gate can't see: name the one that pulled them in.
function describeExtra(count: number, opaque: { file: string; why: string } | undefined): string {
  if (!opaque || count === 0) return '';
  return count === 1 ? ` and 1 that reaches ${opaque.file}, which ${opaque.why}` : ` and ${count} that reach ${opaque.file}, which ${opaque.why}`;
}

function ancestorsBelowRoot(path: string): string[] {
  const dirs: string[] = [];
  for (let dir = parentOf(path); dir !== ''; dir = parentOf(dir)) dirs.push(dir);
  return dirs;
}
