import type { CiRun, CiVerdict } from '../ci/judge-ci.js';
import { commentBody } from '../ci/pr-comment.js';
import type { ResolvedGate } from '../config/load-config.js';
import type { Repo } from '../git/find-repo.js';
import { configDigest } from '../receipt/config-digest.js';
import { makeReceipt } from '../receipt/make-receipt.js';
import { annotationLines } from '../report/annotations.js';
import type { TamperReport } from '../report/sarif.js';
import type { GateResult } from '../runner/gate-result.js';
import { headSnapshot, type Snapshot } from '../snapshot/snapshot.js';
import { stateKeyNow } from '../start/start-state.js';
import type { Project } from './open-project.js';
import { placeFailures, stopgateVersion, writeOut, writeReportFiles, type ReportFiles } from './report-files.js';

// Imported by `gate ci` only when it has reports to make: the writers load with it.

export interface CiReportOptions extends ReportFiles {
  /** Where to write the pull request's comment (src/ci/pr-comment.ts). */
  comment?: string;
}

export interface CiReportInput {
  project: Project;
  repo: Repo;
  /** Every gate of every config, and each config's hash (ConfigTree). */
  gates: ResolvedGate[];
  hashes: ReadonlyMap<string, string>;
  results: GateResult[];
  run: CiRun;
  verdict: CiVerdict;
  snapshot: Snapshot | undefined;
  mergeBase: string | undefined;
  env: NodeJS.ProcessEnv;
}

/**
 * The report files, the pull request's comment, and (under GitHub Actions) the annotation lines to
 * print. A failure is pre-existing when gate remembers it failing on the merge base's tree.
 */
export function makeCiReports(options: CiReportOptions, input: CiReportInput): string[] {
  const { project, repo, run, verdict, env } = input;
  const baseKey = input.mergeBase === undefined ? undefined : stateKeyNow(headSnapshot(input.mergeBase).digest, [repo.root, project.projectDir], env);
  const gates = placeFailures({ repoRoot: repo.root, stateDir: project.stateDir, gates: input.gates, results: input.results, baseKey });
  const findings = [...run.tamper.findings, ...(run.tamper.recorded?.findings ?? [])];
  const tamper: TamperReport | undefined = run.tamper.mode === 'off' ? undefined : { findings, blocking: verdict.tamperBlocks };
  writeReportFiles(options, gates, tamper);
  if (options.comment) {
    const receipt = input.snapshot
      ? makeReceipt({ gates: input.gates, results: input.results, snapshot: input.snapshot, config: configDigest(input.hashes, repo.root), by: 'ci', now: new Date() })
      : { missing: ['(not a git checkout)'] };
    const sealed = 'receipt' in receipt ? receipt.receipt : receipt;
    writeOut(options.comment, commentBody({ run, verdict, gates, receipt: sealed, version: stopgateVersion() }));
  }
  if (env['GITHUB_ACTIONS'] !== 'true') return [];
  return annotationLines(gates, tamper);
}
