import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { filterOutput } from '../filters/filter-output.js';
import { execGit } from '../git/exec-git.js';
import type { GateResult } from '../runner/gate-result.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { goPackageDirs } from '../workspace/go-package-dirs.js';
import { onlyTransient, transientFindings, type TreeAtStart } from './transient-findings.js';

export interface RerunOptions {
  root: string;
  /** The tree when the gates started: its paths (untracked ones among them) count as known. */
  snapshot: Snapshot;
  /** Repository-relative paths the turn changed. */
  changed: string[];
  cwdOf: (name: string) => string;
  /** Runs one gate alone (undefined: it was not run). */
  rerun: (name: string) => Promise<GateResult | undefined>;
}

export interface Rerun {
  name: string;
  /** The files that appeared or vanished during the first run. */
  files: string[];
  status: GateResult['status'];
}

/**
 * A failed gate whose every finding is in a file that appeared or vanished while the gates ran
 * (and the turn did not change) is run again, alone, once; its second result is the one that counts,
 * whatever it is. Gates run one after the other here, so none makes files for another. A gate that
 * failed for other findings too counts as it is; `transient` has the ids of its findings in such
 * files, which its report leaves out.
 */
export async function rerunTransient(results: GateResult[], options: RerunOptions): Promise<{ results: GateResult[]; reruns: Rerun[]; transient: Map<string, string[]> }> {
  const transient = new Map<string, string[]>();
  const failed = results.filter((result) => result.status === 'failed' && !result.cached);
  if (failed.length === 0) return { results, reruns: [], transient };
  let tree: TreeAtStart | undefined;
  const reruns: Rerun[] = [];
  const replaced = new Map<string, GateResult>();
  for (const result of failed) {
    const failures = filterOutput(result.filter, result.output).failures;
    if (!failures.some((failure) => failure.file !== undefined)) continue;
    tree ??= await treeAtStart(options);
    const files = onlyTransient(failures, options.root, options.cwdOf(result.name), tree);
    if (files === undefined) {
      // Failed for other findings too: it counts, and its report leaves these out.
      const ids = transientFindings(failures, options.root, options.cwdOf(result.name), tree).map((failure) => failure.id);
      if (ids.length > 0) transient.set(result.name, ids);
      continue;
    }
    const again = await options.rerun(result.name);
    if (again === undefined) continue;
    replaced.set(result.name, again);
    reruns.push({ name: result.name, files, status: again.status });
  }
  return { results: results.map((result) => replaced.get(result.name) ?? result), reruns, transient };
}

async function treeAtStart(options: RerunOptions): Promise<TreeAtStart> {
  const tracked = (await execGit(options.root, ['ls-files', '-z'])).split('\0').filter(Boolean);
  return {
    known: new Set([...tracked, ...Object.keys(options.snapshot.files)]),
    changed: new Set(options.changed),
    exists: (path) => existsSync(join(options.root, path)),
    packageDirs: (id, cwd) => goPackageDirs(options.root, cwd, id),
  };
}
