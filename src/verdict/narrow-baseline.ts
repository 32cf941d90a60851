import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Failure } from '../filters/filter.js';

/** What the baseline check runs to learn which of a turn's failures were there before. */
export type BaselineNarrowing =
  /** `argv` in the baseline copy checks every one of `ids` (and may show more failures in the same files). */
  | { kind: 'narrowed'; argv: string[]; ids: string[] }
  /** Every failure is in a file the baseline did not have: all new, nothing to run. */
  | { kind: 'absent'; ids: string[] }
  /** The gate's full command, and why. */
  | { kind: 'full'; why: string };

export interface NarrowInput {
  /** The preset whose command the gate keeps; undefined when the gate has its own command. */
  preset: string | undefined;
  /** The gate's full command. */
  run: string[];
  /** The gate's cwd in the repository: failures' absolute paths are made relative to it. */
  cwd: string;
  failures: Failure[];
  /** Paths relative to the gate's cwd: in the turn's tree, and in the baseline commit. */
  existsNow: (path: string) => boolean;
  existedBefore: (path: string) => boolean;
  /** go-test: the module path of the go.mod in the gate's cwd. */
  goModule?: string | undefined;
}

type Unit = { target: string; path: string } | string;

// Each runner: the unit a failure is selected by (a test file, a node id, a package), and the
// command that runs only those units. A failure that maps to none sends the check to the full run.
interface Runner {
  unit: (failure: Failure, input: NarrowInput) => Unit;
  argv: (run: string[], targets: string[], input: NarrowInput, failures: Failure[]) => string[];
}

const RUNNERS: Record<string, Runner> = {
  vitest: { unit: testFile, argv: (run, files) => [...run, ...files] },
  jest: { unit: testFile, argv: (run, files) => [...run, '--runTestsByPath', ...files] },
  mocha: { unit: testFile, argv: (run, files) => [...run, ...files] },
  'node-test': { unit: testFile, argv: (run, files) => [...run, ...files] },
  pytest: { unit: pytestFile, argv: (run, files) => [...run, ...files] },
  'go-test': { unit: goPackage, argv: goArgv },
  'cargo-test': { unit: cargoTest, argv: (run, names) => [...run, '--', '--exact', ...names] },
  ...forPresets(['turbo-test', 'turbo-lint', 'turbo-typecheck', 'turbo-check-types'], { unit: taskPackage, argv: turboArgv }),
  ...forPresets(['nx-test', 'nx-lint', 'nx-typecheck'], { unit: taskPackage, argv: (run, projects) => [...run, `--projects=${projects.join(',')}`] }),
};

function forPresets(ids: string[], runner: Runner): Record<string, Runner> {
  return Object.fromEntries(ids.map((id) => [id, runner]));
}

/** The narrowest command that tells, for each of a gate's failures, whether the baseline had it too. */
export function narrowBaseline(input: NarrowInput): BaselineNarrowing {
  const runner = input.preset === undefined ? undefined : RUNNERS[input.preset];
  if (runner === undefined) return { kind: 'full', why: input.preset === undefined ? 'the gate has its own command' : `${input.preset} cannot select tests` };
  const ids = input.failures.map((failure) => failure.id);
  const kept: Failure[] = [];
  const targets = new Set<string>();
  for (const failure of input.failures) {
    const unit = runner.unit(failure, input);
    if (typeof unit === 'string') return { kind: 'full', why: `${failure.id}: ${unit}` };
    if (!input.existsNow(unit.path)) return { kind: 'full', why: `${unit.path} is not where the failure says` };
    // A test file the turn added cannot have failed before it.
    if (!input.existedBefore(unit.path)) continue;
    kept.push(failure);
    targets.add(unit.target);
  }
  if (targets.size === 0) return { kind: 'absent', ids };
  return { kind: 'narrowed', argv: runner.argv(input.run, [...targets].sort(), input, kept), ids };
}

function testFile(failure: Failure, input: NarrowInput): Unit {
  // Vitest names a workspace project's file "|project| path".
  const file = failure.file?.replace(/^\|[^|]+\|\s+/, '');
  if (file === undefined || file === '') return 'no test file named';
  const path = file.startsWith('file://') ? fileURLToPath(file) : file;
  const local = isAbsolute(path) ? relative(input.cwd, path) : path;
  if (local.startsWith('..') || isAbsolute(local)) return 'the test file is outside the gate\'s folder';
  return { target: local, path: local };
}

// "tests/test_a.py::TestA::test_b[1-2]" → "tests/test_a.py". The file, not the node id: pytest stops
// with "not found" (no verdict) on a node id the baseline lacks, as a test the turn added to the file.
function pytestFile(failure: Failure): Unit {
  const file = failure.id.split('::')[0] ?? '';
  if (!/\.py$/.test(file) || isAbsolute(file) || file.startsWith('..')) return 'not a test node id';
  return { target: file, path: file };
}

// "example.com/m/pkg.TestA/sub" → package "./pkg", top-level test "TestA" (-run '^TestA$' runs its subtests).
const GO_TEST = /^(.+?)\.((?:Test|Fuzz|Example)\w*)(?:\/.*)?$/;

function goPackage(failure: Failure, input: NarrowInput): Unit {
  const pkg = GO_TEST.exec(failure.id)?.[1];
  const module = input.goModule;
  if (pkg === undefined) return 'not a test';
  if (module === undefined) return 'no go.mod in the gate\'s folder';
  if (pkg !== module && !pkg.startsWith(`${module}/`)) return `package ${pkg} is outside module ${module}`;
  const dir = pkg === module ? '.' : `./${pkg.slice(module.length + 1)}`;
  return { target: dir, path: dir };
}

function goArgv(run: string[], packages: string[], _input: NarrowInput, failures: Failure[]): string[] {
  const names = [...new Set(failures.map((failure) => GO_TEST.exec(failure.id)?.[2] ?? ''))].sort();
  return [...run.filter((word) => word !== './...'), '-run', `^(${names.join('|')})$`, ...packages];
}

// "binary::module::test" → "module::test"; cargo runs it in each test binary that has it (--exact).
function cargoTest(failure: Failure): Unit {
  const match = /^[\w-]+::(.+)$/.exec(failure.id);
  if (match?.[1] === undefined) return 'not a test';
  return { target: match[1], path: '.' };
}

// A task runner's failure ids start with the package (project) whose task failed: "@acme/web > test/a.test.js > adds"
// (src/filters/task-runner/filter-tasks.ts). Package names hold no space. Each failing package runs
// alone (its tasks' dependencies with it), not with the packages that depend on it as a stop does.
function taskPackage(failure: Failure): Unit {
  const name = /^(\S+) > /.exec(failure.id)?.[1];
  if (name === undefined) return 'names no package';
  return { target: name, path: '.' };
}

// The filters go before a `--`, after which turbo hands the words to the tasks.
function turboArgv(run: string[], packages: string[]): string[] {
  const end = run.includes('--') ? run.indexOf('--') : run.length;
  return [...run.slice(0, end), ...packages.map((name) => `--filter=${name}`), ...run.slice(end)];
}
