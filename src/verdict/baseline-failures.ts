import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import type { ResolvedGate } from '../config/load-config.js';
import type { Failure } from '../filters/filter.js';
import { filterOutput } from '../filters/filter-output.js';
import { execGit, execGitIndexed } from '../git/exec-git.js';
import { gateFileName } from '../runner/gate-file-name.js';
import { killGroupsAndWait } from '../runner/process-groups.js';
import { runGate } from '../runner/run-gate.js';
import { lendDependencies, packageDirs } from './link-dependencies.js';
import { filesNamingWorkTree, IGNORED_TOP_LEVEL, workTreePathsIn } from './copy-leaks.js';
import { findEditableInstalls, sitePackagesFor } from '../start/editable-installs.js';
import { failureMemoryPath, recallFailures, rememberFailures } from './failure-memory.js';
import { lendTurboCache } from './lend-turbo-cache.js';
import { narrowBaseline, type BaselineNarrowing } from './narrow-baseline.js';
import { isOutputId, outputId } from './output-id.js';
import { stoppedEarly } from './partial-run.js';
import { preparePythonProbe } from './python-probe.js';
import { unloadedSuite } from './unloaded-suite.js';

export interface BaselineInput {
  root: string;
  stateDir: string;
  /** The baseline's every file: a commit, or the tree written when the turn started (undefined: none to copy). */
  tree: string | undefined;
  /** What evidence of the baseline is kept under: its digest and the environment it ran in (src/start/start-state.ts). */
  key: string;
  gate: ResolvedGate;
  env: NodeJS.ProcessEnv;
  /** The gate's failure ids this turn (for output that names none, src/verdict/output-id.ts). */
  ids: string[];
  /** The same failures as the filter read them: the check runs only what places them (src/verdict/narrow-baseline.ts). */
  failures: Failure[];
  /** The gate's full command whatever the failures (GATE_BASELINE=full: to measure what narrowing saves). */
  full?: boolean;
  /** When the stop must be decided (epoch ms): the run's timeout is cut to it. */
  deadline?: number;
  /** The start's evidence: a full pytest run also records what each test executed, for the stops of the turn (src/fast/by-coverage/). */
  record?: true;
}

/** Which of the turn's failures were there at the baseline; `doubt` says why it could not be told. */
export interface BaselineAnswer {
  /** undefined: nothing known (every failure counts as new). */
  failing: string[] | undefined;
  doubt?: string;
  /** A copy of the baseline ran for this answer (not only what was remembered). */
  copied?: true;
}

/**
 * Which of the turn's failures the gate had at the turn's baseline: remembered from earlier runs on
 * that exact state (tree and environment), or found by running the failing tests only on a copy of
 * the baseline's every file (its commit, or the tree written when the turn started). A failure
 * nobody can place is not in the list: it counts as new. So does every failure the copy's run could
 * have seen through the edited code (see runOnState).
 */
export async function baselineFailures(input: BaselineInput): Promise<BaselineAnswer> {
  const memory = failureMemoryPath(input.stateDir);
  const recalled = recallFailures(memory, input.key, input.gate.name, input.ids);
  if (recalled.unchecked.length === 0) return { failing: recalled.failing };
  const known = recalled.failing.length > 0 || recalled.unchecked.length < input.ids.length ? recalled.failing : undefined;
  if (input.tree === undefined) return { failing: known };
  const unchecked = input.failures.filter((failure) => recalled.unchecked.includes(failure.id));
  const found = await runOnState(input, input.tree, unchecked);
  if (found === undefined) return { failing: known, copied: true };
  if ('doubt' in found) return { failing: known, doubt: found.doubt, copied: true };
  rememberFailures(memory, input.key, input.gate.name, found.failing, found.checked);
  return { failing: [...new Set([...recalled.failing, ...found.failing])], copied: true };
}

/**
 * Every failure the gate has on the start, from a full run on a copy of it (the background
 * gathering, src/verdict/start-evidence.ts), remembered under the start's key while `stillValid`
 * (`record`: a pytest run also writes the gate's coverage record, for the work tree's paths).
 * False when the copy gave no evidence (a leak, a timeout, no verdict).
 */
export async function rememberStartRun(input: Omit<BaselineInput, 'ids' | 'failures' | 'full' | 'tree'> & { tree: string; stillValid: () => boolean }): Promise<boolean> {
  const found = await runOnState({ ...input, ids: [], failures: [], full: true }, input.tree, []);
  if (found === undefined || 'doubt' in found || !input.stillValid()) return false;
  rememberFailures(failureMemoryPath(input.stateDir), input.key, input.gate.name, found.failing, found.checked);
  return true;
}

/**
 * The ids of a run on the copy, its paths spelled as the work tree's. A tool may print the copy's
 * path as given or its real path (pyright, black: the copy under a symlinked TMPDIR, macOS's /var →
 * /private/var): both spellings count, each mapped to the work tree's same spelling.
 */
function copyFailureIds(status: string, filter: string, output: string, copy: string, root: string): string[] | undefined {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const spellings = new Set([output.split(copy).join(root), output.split(real(copy)).join(real(root))]);
  const found = [...spellings].map((text) => failureIds(status, filter, text));
  if (found.some((ids) => ids === undefined)) return undefined;
  return [...new Set(found.flatMap((ids) => ids ?? []))];
}

/** Failure ids of a run, or [] for a pass; undefined when the run gave no verdict. */
export function failureIds(status: string, filter: string, output: string): string[] | undefined {
  if (status === 'passed') return [];
  if (status !== 'failed') return undefined;
  const ids = filterOutput(filter, output).failures.map((failure) => failure.id);
  // Output that names no failure is known by the output itself: the same on the start is the same failure.
  if (ids.length > 0) return ids;
  const whole = outputId(output);
  return whole === undefined ? undefined : [whole];
}

interface Found {
  failing: string[];
  /** The ids a narrowed run looked at; undefined after a full run (it looked at every test). */
  checked: string[] | undefined;
}

/**
 * A plain copy, not a worktree: nothing is registered in the repository, and the copy borrows the
 * installed dependencies through symlinks (a workspace's own packages: the copy's). Checked out
 * through an index of gate's own, as a checkout writes it: `git archive` would drop the paths
 * `.gitattributes` marks export-ignore (test fixtures, often), and a test reading one would fail there.
 * Its answer counts only on evidence that it ran the commit's code: no link, file or editable
 * install leads it into the work tree unredirected, no Python it started opened a file there, and
 * its output names none. Else `doubt` says what leaked, and nothing is remembered.
 */
async function runOnState(input: BaselineInput, treeish: string, failures: Failure[]): Promise<Found | { doubt: string } | undefined> {
  // Outside the work tree: a tool that looks for its config upwards (pytest, eslint, vite's
  // `server.fs.deny` of .git) must see the copy as an ordinary checkout, not a folder of the live one.
  let scratch: string;
  try {
    scratch = mkdtempSync(join(tmpdir(), 'gate-baseline-'));
  } catch (error) {
    // Not a crash, which would let the stop through: the failures count as new, and the human is told why.
    return { doubt: `no temp folder for the baseline copy (${error instanceof Error ? error.message : String(error)}); set TMPDIR to a writable folder` };
  }
  // A stop the harness kills (SIGTERM → process.exit) skips `finally`: the copy goes on exit too,
  // after the git checking it out (which would write on into it) is dead.
  const checkingOut = new Set<number>();
  const removeScratch = () => {
    killGroupsAndWait(checkingOut);
    rmSync(scratch, { recursive: true, force: true, maxRetries: 2 });
  };
  process.once('exit', removeScratch);
  const copy = join(scratch, basename(input.root));
  const probeDir = join(scratch, 'python-probe');
  mkdirSync(copy);
  try {
    const index = join(scratch, 'index');
    let tree: string[];
    try {
      await execGitIndexed(input.root, ['read-tree', treeish], index, undefined, checkingOut);
      await execGitIndexed(input.root, ['checkout-index', '-a', '-f', `--prefix=${copy}/`], index, undefined, checkingOut);
      rmSync(index);
      tree = (await execGit(input.root, ['ls-tree', '-r', '-z', '--name-only', treeish])).split('\0').filter(Boolean);
    } catch (error) {
      // A file missing from the object store (a partial clone, a damaged repository): no copy, said so.
      return { doubt: `the copy of the baseline could not be made (${firstLine(error)})` };
    }
    const lentDirs = [...new Set(['', relative(input.root, input.gate.cwd), ...packageDirs(tree)])];
    const liveLinks = lendDependencies(input.root, copy, lentDirs);
    if (liveLinks.length > 0) return { doubt: leakedThrough('links', liveLinks) };
    const roots = workTreeRoots(input.root);
    const naming = await filesNamingWorkTree(input.root, treeish, roots);
    if (naming.length > 0) return { doubt: leakedThrough('files that name it by absolute path', naming) };

    const cwd = join(copy, relative(input.root, input.gate.cwd));
    // Output that names no failure is compared whole: only the full command prints all of it.
    const narrowing = input.full === true || input.ids.some(isOutputId) ? undefined : narrowFor(input.gate, cwd, failures);
    if (narrowing?.kind === 'absent') return { failing: [], checked: narrowing.ids };
    const run = lendTurboCache(input.gate, narrowing?.kind === 'narrowed' ? narrowing.argv : input.gate.run, input.env);
    const narrowed = run !== input.gate.run ? { run, tier: undefined, shell: false } : {};
    const topLevel = new Set(tree.map((path) => path.split('/')[0] ?? '').filter((name) => name !== '' && !IGNORED_TOP_LEVEL.includes(name)));
    const probe = pythonProbe(input, copy, probeDir, roots, lentDirs, [...topLevel]);
    const gate = { ...input.gate, ...narrowed, cwd, env: { ...input.gate.env, ...ownBuildDirs(copy), ...probe.env } };
    // Without the fast tier's cache: the copy's paths would spoil the turn's.
    const logPath = join(input.stateDir, 'logs', `${gateFileName(gate.name)}.baseline.log`);
    // The start's record is written beside the copy, and kept only once the run proved it ran the copy's code.
    const staging = input.record ? join(scratch, 'record') : undefined;
    const recordCoverage = staging ? { standsFor: input.gate.cwd, cacheDir: staging } : false;
    const result = await runGate({ gate, files: [], full: true, projectDir: gate.cwd, logPath, cacheDir: join(input.stateDir, 'cache', `${gateFileName(gate.name)}.baseline`), env: input.env, deadline: input.deadline, recordCoverage, pythonBytecode: false });
    const opened = probe.read().opened.map((path) => relativeToRoots(path, roots));
    if (opened.length > 0) return { doubt: leakedThrough('Python, which opened', opened) };
    const named = workTreePathsIn(result.output, roots, copy, topLevel);
    if (named.length > 0) return { doubt: leakedThrough('its output, which names', named) };
    if (result.outOfTime) return { doubt: `its run on the baseline did not start: ${result.detail ?? "the stop's time was spent"}` };
    if (result.status === 'timed-out') return { doubt: `its run on the baseline was ${result.detail ?? 'killed at its timeout'}` };
    const failing = copyFailureIds(result.status, gate.filter, result.output, copy, input.root);
    const unloaded = failing === undefined ? undefined : unloadedSuite(failing, failures.map((failure) => failure.id));
    if (unloaded !== undefined) return { doubt: `its run on the baseline could not load ${unloaded}, so it never ran the tests that fail there now` };
    if (failing === undefined) return undefined;
    // A run that may have stopped at its first failing unit says nothing of the failures it never reached.
    if (result.status === 'failed' && stoppedEarly(result.command, gate.preset, gate.filter, result.output)) return { failing, checked: failing };
    if (staging) (await import('../fast/by-coverage/save-record.js')).keepRecord(staging, join(input.stateDir, 'cache', gateFileName(input.gate.name)));
    return { failing, checked: narrowing?.kind === 'narrowed' ? narrowing.ids : undefined };
  } catch {
    return undefined;
  } finally {
    process.removeListener('exit', removeScratch);
    removeScratch();
  }
}

/**
 * Every Python the baseline run starts imports the copy's packages first (PYTHONPATH names the
 * copy's folders that the environment's editable installs name in the work tree) and reports any
 * file it opens in the work tree (src/verdict/python-probe.ts).
 */
function pythonProbe(input: BaselineInput, copy: string, probeDir: string, roots: string[], lentDirs: string[], watch: string[]) {
  const env = { ...input.env, ...input.gate.env };
  const sites = sitePackagesFor(
    lentDirs.map((dir) => join(input.root, dir)),
    env,
  );
  const redirected = findEditableInstalls(sites, roots)
    .map((install) => join(copy, relativeToRoots(install.entry, roots)))
    .filter((dir) => existsSync(dir));
  return preparePythonProbe(probeDir, roots, watch, [...new Set(redirected)], env['PYTHONPATH']);
}

/** The work tree as tools may spell it: as given and by its real path. */
function workTreeRoots(root: string): string[] {
  try {
    return [...new Set([root, realpathSync(root)])];
  } catch {
    return [root];
  }
}

function relativeToRoots(path: string, roots: string[]): string {
  for (const root of roots) {
    const rel = relative(root, path);
    if (!rel.startsWith('..')) return rel;
  }
  return path;
}

function firstLine(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).trim();
  const line = text.split('\n').find((candidate) => /error|fatal/i.test(candidate)) ?? text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function leakedThrough(how: string, what: string[]): string {
  const listed = what.slice(0, 3).join(', ');
  return `the copy of the starting commit reached the edited work tree through ${how} ${listed}${what.length > 3 ? ` and ${what.length - 3} more` : ''}`;
}

/** Narrowing needs the preset's own command (a gate that keeps it has the preset's fast tier). */
function narrowFor(gate: ResolvedGate, copyCwd: string, failures: Failure[]): BaselineNarrowing | undefined {
  if (gate.tier === undefined || gate.shell || !Array.isArray(gate.run)) return undefined;
  return narrowBaseline({
    preset: gate.preset,
    run: gate.run,
    cwd: gate.cwd,
    failures,
    existsNow: (path) => existsSync(join(gate.cwd, path)),
    existedBefore: (path) => existsSync(join(copyCwd, path)),
    goModule: gate.preset === 'go-test' ? goModule(copyCwd) : undefined,
  });
}

function goModule(dir: string): string | undefined {
  try {
    return /^module\s+"?([^\s"]+)"?/m.exec(readFileSync(join(dir, 'go.mod'), 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * cargo's build folder, the copy's own. A CARGO_TARGET_DIR (or build.target-dir) outside the copy
 * is shared with the turn's builds, and cargo judges freshness by mtime on paths relative to the
 * workspace: the copy's files carry the commit's time, older than the turn's artifacts, so the
 * baseline run would reuse the turn's build (its failures look pre-existing, and do not block)
 * — or overwrite it with the baseline's, which the next run in the repository then trusts.
 */
function ownBuildDirs(copy: string): Record<string, string> {
  const target = join(copy, 'target');
  return { CARGO_TARGET_DIR: target, CARGO_BUILD_BUILD_DIR: target };
}

