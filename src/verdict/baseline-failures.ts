import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ResolvedGate } from '../config/load-config.js';
import { filterOutput } from '../filters/filter-output.js';
import { execGit } from '../git/exec-git.js';
import { gateFileName } from '../runner/gate-file-name.js';
import { runGate } from '../runner/run-gate.js';
import { lendDependencies, packageDirs } from './link-dependencies.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { failureMemoryPath, recalledFailures, rememberFailures } from './failure-memory.js';

export interface BaselineInput {
  root: string;
  stateDir: string;
  baseline: Snapshot;
  gate: ResolvedGate;
  env: NodeJS.ProcessEnv;
}

/**
 * The failures a gate had at the turn's baseline: remembered from an earlier run on that exact
 * tree, or found by running the gate on a copy of the baseline commit when the baseline had no
 * local changes. `undefined` when it can't be known — then every failure counts as new.
 */
export async function baselineFailures(input: BaselineInput): Promise<string[] | undefined> {
  const memory = failureMemoryPath(input.stateDir);
  const recalled = recalledFailures(memory, input.baseline.digest, input.gate.name);
  if (recalled !== undefined) return recalled;
  if (input.baseline.head === null || Object.keys(input.baseline.files).length > 0) return undefined;
  const ids = await runOnCommit(input, input.baseline.head);
  if (ids !== undefined) rememberFailures(memory, input.baseline.digest, input.gate.name, ids);
  return ids;
}

/** Failure ids of a run, or [] for a pass; undefined when the run gave no verdict. */
export function failureIds(status: string, filter: string, output: string): string[] | undefined {
  if (status === 'passed') return [];
  if (status !== 'failed') return undefined;
  const ids = filterOutput(filter, output).failures.map((failure) => failure.id);
  return ids.length > 0 ? ids : undefined;
}

// A plain copy (git archive), not a worktree: nothing is registered in the repository, and the copy
// borrows the installed dependencies through symlinks (a workspace's own packages: the copy's).
async function runOnCommit(input: BaselineInput, head: string): Promise<string[] | undefined> {
  const copy = join(input.stateDir, 'baseline', input.baseline.digest);
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  try {
    await execGit(input.root, ['archive', '--format=tar', '-o', `${copy}.tar`, head]);
    execFileSync('tar', ['-xf', `${copy}.tar`, '-C', copy], { stdio: 'ignore' });
    const tree = await execGit(input.root, ['ls-tree', '-r', '-z', '--name-only', head]);
    lendDependencies(input.root, copy, new Set(['', relative(input.root, input.gate.cwd), ...packageDirs(tree.split('\0'))]));
    const gate = { ...input.gate, cwd: join(copy, relative(input.root, input.gate.cwd)), env: { ...input.gate.env, ...ownBuildDirs(copy) } };
    // The full command, without the fast tier's cache: the copy's paths would spoil the turn's.
    const logPath = join(input.stateDir, 'logs', `${gateFileName(gate.name)}.baseline.log`);
    const result = await runGate({ gate, files: [], full: true, projectDir: gate.cwd, logPath, cacheDir: join(input.stateDir, 'cache', `${gateFileName(gate.name)}.baseline`), env: input.env });
    return failureIds(result.status, gate.filter, result.output.split(copy).join(input.root));
  } catch {
    return undefined;
  } finally {
    rmSync(copy, { recursive: true, force: true });
    rmSync(`${copy}.tar`, { force: true });
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

