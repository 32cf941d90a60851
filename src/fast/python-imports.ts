import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import picomatch from 'picomatch';
import { activateProjectEnv } from '../runner/activate-project-env.js';
import { envCacheFile } from '../runner/ask-env-manager.js';
import { fullRunFirst, type FastPlan, type FastInput, type Planner } from './planner.js';
import { findTestmon } from './find-testmon.js';
import { parentOf } from './python-module-graph.js';
import { listNames } from './reach-dependents.js';
import { readPytestConfig, type PytestConfig } from './read-pytest-config.js';
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
  const data = files.find((file) => !file.endsWith('.py'));
  if (data) return { kind: 'full', why: `${data} changed, and tests may read it as data` };
  const outside = files.find((file) => file.startsWith('../') || isAbsolute(file));
  if (outside) return { kind: 'full', why: `${outside} is outside the gate's folder` };

  // testmon counts only where the pytest that runs is: the project's environment, when it has one.
  const cacheFile = input.cacheDir === undefined ? undefined : envCacheFile(dirname(input.cacheDir));
  const { env } = await activateProjectEnv(gate, 'pytest', { ...process.env, ...gate.env }, cacheFile);
  const config = readPytestConfig(gate.cwd, env['PYTEST_ADDOPTS']);
  if (!config.disabled.some((name) => name === 'testmon' || name === 'pytest-testmon') && findTestmon(env)) {
    // testmon reads its data file's path from the environment only (TESTMON_DATAFILE).
    const run = ['env', 'TESTMON_DATAFILE={cache}/testmondata', ...gate.tier.run.filter((word) => word !== FILES), '--testmon'];
    return { kind: 'fast', run, targets: [], why: 'pytest-testmon: the tests its coverage data ties to what changed since its last run (all of them the first time)' };
  }
  if (config.unsure) return { kind: 'full', why: `${config.unsure}, which gate does not follow` };
  return planFromImports(gate, files, config);
};

function planFromImports(gate: FastInput['gate'], files: string[], config: PytestConfig): FastPlan {
  const project = readPythonProject(gate.cwd, config.doctestGlobs);
  if (!project) return { kind: 'full', why: 'too many files in the project to read its imports at a stop' };
  const deleted = files.filter((file) => !project.sources.has(file) && !existsSync(join(gate.cwd, file)));
  const isTestFile = config.doctestModules ? (name: string) => name !== 'setup.py' && name !== '__main__.py' : (name: string) => /^test_.*\.py$|_test\.py$/.test(name);
  const inTestpaths = config.testpaths.length === 0 ? () => true : picomatch(config.testpaths.flatMap((path) => [path, `${path}/**`]), { dot: true });
  const norecurse = picomatch(config.norecursedirs, { dot: true });
  const collected = (path: string) => inTestpaths(path) && !parentOf(path).split('/').some((dir) => dir !== '' && norecurse(dir));
  const collects = (path: string) => isTestFile(path.slice(path.lastIndexOf('/') + 1)) && collected(path);
  const selection = selectPythonTests({
    paths: [...project.sources.keys(), ...deleted],
    sources: project.sources,
    changed: files,
    collects,
    alwaysRun: project.doctestFiles.filter(collected),
    scripts: project.scripts,
  });
  const { targets } = selection;
  if (targets.length === 0) return { kind: 'none', why: `no test imports ${files.length === 1 ? files[0] : `the ${files.length} changed files`}` };
  const kind = config.doctestModules ? 'files' : 'test files';
  const extra = describeExtra(targets.length - selection.reached, selection.opaque);
  if (targets.length >= selection.total) {
    const via = selection.through ? `, ${selection.through.count === selection.reached ? 'all' : selection.through.count} through ${selection.through.file}` : '';
    const cause = selection.reached >= targets.length ? `every one imports the change${via}` : `${selection.reached} import the change${via}${extra}`;
    return { kind: 'full', why: `${targets.length} of ${selection.total} ${kind}: ${cause}` };
  }

  // The full run's config file, and with it its rootdir and conftest.py files: pytest looks for a
  // config from the tests' folder up, and one in between would win.
  const nested = targets.find((target) => ancestorsBelowRoot(target).some((dir) => project.configDirs.has(dir)));
  if (nested && !config.file) return { kind: 'full', why: `${nested} has a pytest config or setup.py of its own above it, which pytest would read instead` };
  const options = nested && config.file ? ['-c', relative(gate.cwd, config.file)] : [];
  const at = gate.tier.run.indexOf(FILES);
  const run = at === -1 ? gate.tier.run : [...gate.tier.run.slice(0, at), ...options, ...gate.tier.run.slice(at)];
  return { kind: 'fast', run, targets, why: `only ${targets.length} of ${selection.total} ${kind}: ${listNames(targets)} (the ones importing the change${extra})` };
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
