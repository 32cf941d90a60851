import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ResolvedGate } from '../config/load-config.js';
import type { Failure } from '../filters/filter.js';
import { filterOutput } from '../filters/filter-output.js';
import { execGit } from '../git/exec-git.js';
import { gateFileName } from '../runner/gate-file-name.js';
import { runGate } from '../runner/run-gate.js';
import { lendDependencies, packageDirs } from './link-dependencies.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { failureMemoryPath, recallFailures, rememberFailures } from './failure-memory.js';
import { narrowBaseline, type BaselineNarrowing } from './narrow-baseline.js';

export interface BaselineInput {
  root: string;
  stateDir: string;
  baseline: Snapshot;
  gate: ResolvedGate;
  env: NodeJS.ProcessEnv;
  /** The gate's failures this turn: the check runs only what places them (src/verdict/narrow-baseline.ts). */
  failures: Failure[];
  /** The gate's full command whatever the failures (GATE_BASELINE=full: to measure what narrowing saves). */
  full?: boolean;
}

/**
 * Which of the turn's failures the gate had at the turn's baseline: remembered from earlier runs on
 * that exact tree, or found by running on a copy of the baseline commit (when the baseline had no
 * local changes) the failing tests only. A failure nobody can place is not in the list: it counts as new.
 */
export async function baselineFailures(input: BaselineInput): Promise<string[] | undefined> {
  const memory = failureMemoryPath(input.stateDir);
  const recalled = recallFailures(memory, input.baseline.digest, input.gate.name, input.failures.map((failure) => failure.id));
  if (recalled.unchecked.length === 0) return recalled.failing;
  const known = recalled.failing.length > 0 || recalled.unchecked.length < input.failures.length ? recalled.failing : undefined;
  if (input.baseline.head === null || Object.keys(input.baseline.files).length > 0) return known;
  const unchecked = input.failures.filter((failure) => recalled.unchecked.includes(failure.id));
  const found = await runOnCommit(input, input.baseline.head, unchecked);
  if (found === undefined) return known;
  rememberFailures(memory, input.baseline.digest, input.gate.name, found.failing, found.checked);
  return [...new Set([...recalled.failing, ...found.failing])];
}

/** Failure ids of a run, or [] for a pass; undefined when the run gave no verdict. */
export function failureIds(status: string, filter: string, output: string): string[] | undefined {
  if (status === 'passed') return [];
  if (status !== 'failed') return undefined;
  const ids = filterOutput(filter, output).failures.map((failure) => failure.id);
  return ids.length > 0 ? ids : undefined;
}

interface Found {
  failing: string[];
  /** The ids a narrowed run looked at; undefined after a full run (it looked at every test). */
  checked: string[] | undefined;
}

// A plain copy (git archive), not a worktree: nothing is registered in the repository, and the copy
// borrows the installed dependencies through symlinks (a workspace's own packages: the copy's).
async function runOnCommit(input: BaselineInput, head: string, failures: Failure[]): Promise<Found | undefined> {
  const copy = join(input.stateDir, 'baseline', input.baseline.digest);
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  try {
    await execGit(input.root, ['archive', '--format=tar', '-o', `${copy}.tar`, head]);
    execFileSync('tar', ['-xf', `${copy}.tar`, '-C', copy], { stdio: 'ignore' });
    const tree = await execGit(input.root, ['ls-tree', '-r', '-z', '--name-only', head]);
    lendDependencies(input.root, copy, new Set(['', relative(input.root, input.gate.cwd), ...packageDirs(tree.split('\0'))]));
    const cwd = join(copy, relative(input.root, input.gate.cwd));
    const narrowing = input.full === true ? undefined : narrowFor(input.gate, cwd, failures);
    if (narrowing?.kind === 'absent') return { failing: [], checked: narrowing.ids };
    const narrowed = narrowing?.kind === 'narrowed' ? { run: narrowing.argv, tier: undefined, shell: false } : {};
    const gate = { ...input.gate, ...narrowed, cwd, env: { ...input.gate.env, ...ownBuildDirs(copy) } };
    // Without the fast tier's cache: the copy's paths would spoil the turn's.
    const logPath = join(input.stateDir, 'logs', `${gateFileName(gate.name)}.baseline.log`);
    const result = await runGate({ gate, files: [], full: true, projectDir: gate.cwd, logPath, cacheDir: join(input.stateDir, 'cache', `${gateFileName(gate.name)}.baseline`), env: input.env });
    const failing = failureIds(result.status, gate.filter, result.output.split(copy).join(input.root));
    return failing === undefined ? undefined : { failing, checked: narrowing?.kind === 'narrowed' ? narrowing.ids : undefined };
  } catch {
    return undefined;
  } finally {
    rmSync(copy, { recursive: true, force: true });
    rmSync(`${copy}.tar`, { force: true });
  }
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

