import { join } from 'node:path';
import { timeoutCounts } from '../verdict/timeout-counts.js';
import { UsageError } from '../errors.js';
import { selectGates, type GateSelection } from '../plan/select-gates.js';
import { leaveToPackages } from '../plan/leave-to-packages.js';
import type { GateResult } from '../runner/gate-result.js';
import { runGates } from '../runner/run-gates.js';
import type { Rerun } from '../transient/rerun-transient.js';
import { passedPath, readPassed, writePassed } from '../state/session-state.js';
import { unsureGates } from '../stop/unsure-gates.js';
import { rememberPassedTree } from '../verdict/passed-trees.js';
import { rememberResults } from '../verdict/remember-results.js';
import { headSnapshot } from '../snapshot/snapshot.js';
import { stateKeyNow } from '../start/start-state.js';
import { changeSinceBaseline, openTree, type Project } from './open-project.js';

export interface CheckOptions {
  /** Every gate, whatever changed. */
  all: boolean;
  /** Only these gates (by name or short name), every one of them in full. */
  names: string[];
  env: NodeJS.ProcessEnv;
  onStart?: (name: string) => void;
  onDone?: (result: GateResult) => void;
}

export interface CheckRun {
  /** In words, what the change was measured against; undefined when every gate ran regardless. */
  baseline: string | undefined;
  changedFiles: string[];
  selections: GateSelection[];
  /** The gates that ran, in config order. */
  results: GateResult[];
  /** The results that count against the change (timeouts too when onTimeout is "block"). */
  failed: GateResult[];
  /** Gates run again alone because they failed only on files that appeared or vanished during the run. */
  reruns: Rerun[];
  /** The snapshot digest of what the change is measured from (HEAD with --all): failures remembered there are pre-existing. */
  baseDigest?: string;
}

/** `gate check`'s work, without its printing: select the gates, run them, remember a tree that passed all. */
export async function checkGates(project: Project, options: CheckOptions): Promise<CheckRun> {
  const everything = options.all || options.names.length > 0;
  const since = everything ? undefined : await changeSinceBaseline(project);
  const change = since?.change ?? { paths: [], all: true };
  // Asked for by name or --all: every config in the repository, so a package's gate can be named.
  const tree = await openTree(project, change);
  const known = new Set(tree.gates.flatMap((gate) => [gate.name, gate.shortName]));
  const unknown = options.names.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new UsageError(`no gate named ${unknown.join(', ')}; the gates are: ${tree.gates.map((gate) => gate.name).join(', ')}`);

  const skip = new Set((options.env['GATE_SKIP'] ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  const only = options.names.length > 0 ? new Set(options.names) : undefined;
  const selections = leaveToPackages(selectGates(tree.gates, change, project.repo?.root ?? project.config.dir, tree.scopes, skip, only));
  // The tree the gates start on: what they show is remembered for it.
  const snapshot = project.repo ? (since?.snapshot ?? (await changeSinceBaseline(project)).snapshot) : undefined;
  const run = (chosen: GateSelection[], concurrency: number) =>
    runGates({
      selections: chosen,
      concurrency,
      projectDir: project.projectDir,
      logDir: join(project.stateDir, 'logs'),
      cacheDir: join(project.stateDir, 'cache'),
      env: options.env,
      onStart: options.onStart,
      onDone: options.onDone,
    });
  const first = await run(selections, tree.root.concurrency);
  // Gates share the work tree: one that failed only on files another made or removed runs again alone (src/transient/).
  const { results, reruns } =
    snapshot && project.repo && first.some((result) => result.status === 'failed')
      ? await (await import('../transient/rerun-transient.js')).rerunTransient(first, {
          root: project.repo.root,
          snapshot,
          changed: change.paths,
          cwdOf: (name) => tree.gates.find((gate) => gate.name === name)?.cwd ?? project.projectDir,
          rerun: async (name) => (await run(selections.filter((selection) => selection.run && selection.gate.name === name), 1))[0],
        })
      : { results: first, reruns: [] };
  const failed = results.filter((result) => result.status === 'failed' || timeoutCounts(result, project.config.onTimeout));
  // Every gate passed on this tree, or every gate its change triggered (as at a passing stop): a
  // stop on the same tree needn't run them again, and later changes are measured from here.
  const allPassed = tree.gates.every((gate) => results.some((result) => result.name === gate.name && result.status === 'passed'));
  const changePassed = !everything && results.length > 0 && results.every((result) => result.status === 'passed' || result.status === 'skipped');
  if ((allPassed || changePassed) && snapshot) {
    // As at a stop: the gates whose pass here covered part of the project only are named.
    const last = readPassed(passedPath(project.stateDir)).value;
    const before = last !== undefined && last.snapshot.digest === since?.base?.digest && last.configHash === project.configFiles.hash ? (last.unsure ?? []) : undefined;
    const passed = { snapshot, configHash: project.configFiles.hash, unsure: unsureGates(tree.gates.map((gate) => gate.name), results, before) };
    writePassed(passedPath(project.stateDir), passed);
    rememberPassedTree(project.stateDir, passed);
  }
  // A later stop whose turn starts from this tree knows its failures without a copy of it.
  const dirs = [project.repo?.root ?? project.projectDir, project.projectDir];
  if (snapshot) rememberResults(project.stateDir, stateKeyNow(snapshot.digest, dirs, options.env), results);
  const baseDigest = (since?.base ?? (snapshot ? headSnapshot(snapshot.head) : undefined))?.digest;
  return { baseline: since?.baseline, changedFiles: change.paths, selections, results, failed, reruns, baseDigest };
}
