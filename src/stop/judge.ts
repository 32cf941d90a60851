// The stop's phase that judges: which failures the turn caused (baseline copies, start evidence), which
// gates timed out twice running, and what the change did to the tests and checks themselves.
import type { StopContext } from './stop-context.js';
import type { ConfigTree } from '../config/config-tree.js';
import type { ResolvedConfig, ResolvedGate } from '../config/load-config.js';
import type { GateResult } from '../runner/gate-result.js';
import type { SessionState } from '../state/session-state.js';
import { checkScriptsOf } from '../tamper/check-scripts.js';
import { findTampering } from '../tamper/find-tampering.js';
import { findRewrittenExpectations, type GateRun } from '../tamper/rewritten-expectations.js';
import type { TamperFinding } from '../tamper/tamper-finding.js';
import { type Judgement, judgeFailures } from '../verdict/judge-failures.js';
import type { LastRun } from '../verdict/last-gate-runs.js';
import type { Reruns } from './run-chosen-gates.js';

/** The judgement, the failures left out of the report because a rerun alone explained them, and each gate's folder (`cwdOf`), which its tool names files from. */
export type Judged = Judgement & Omit<Reruns, 'results' | 'notes'> & { lastRuns: ReadonlyMap<string, LastRun>; root: string; cwdOf: (name: string) => string };

export interface StopJudgement {
  judged: Judged;
  tampering: TamperFinding[];
  /** Gates that timed out at this stop and at the last run of them. */
  timedOutBefore: Set<string>;
  runs: (list: GateResult[]) => GateRun[];
}

/** Tests skipped, deleted or emptied, checks weakened (a check script a gate runs too), gate's own config edited — since the turn's baseline. */
export async function lookForTampering(stop: StopContext, config: ResolvedConfig, gates: ResolvedGate[]): Promise<TamperFinding[]> {
  if (config.tamper === 'off' || !stop.snapshot) return [];
  const scan = await findTampering(stop.root, stop.baseline?.head ?? stop.snapshot.head, stop.change.paths, stop.tamperScan, checkScriptsOf(gates, stop.root));
  return scan.findings;
}

export async function judgeStop(stop: StopContext, tree: ConfigTree, state: SessionState, ran: Reruns, scanned: TamperFinding[]): Promise<StopJudgement> {
  const config = tree.root;
  const { results } = ran;
  const cwdOf = (name: string) => tree.gates.find((gate) => gate.name === name)?.cwd ?? stop.projectDir;
  // Tests that failed at the last block and pass now because their checks were edited (src/tamper/).
  const runs = (list: GateResult[]): GateRun[] => list.map((result) => ({ ...result, cwd: cwdOf(result.name) }));
  const tampering = [...scanned, ...(config.tamper === 'off' || !state.tests ? [] : findRewrittenExpectations(stop.root, state.tests, runs(results)))];
  const timedOut = results.filter((result) => result.status === 'timed-out').map((result) => result.name);
  const lastRuns = timedOut.length > 0 && config.onTimeout === 'once' ? (await import('../verdict/last-gate-runs.js')).lastGateRuns(stop.stateDir, timedOut) : new Map<string, LastRun>();
  const timedOutBefore = new Set(timedOut.filter((name) => lastRuns.get(name)?.status === 'timed-out'));
  const failures = await judgeFailures({ ...stop, configHash: stop.configFiles.hash, start: state.start }, tree.gates, results, config.concurrency);
  const { transient, loadLeftOut, loadFlaky } = ran;
  const judged: Judged = { ...failures, transient, loadLeftOut, loadFlaky, lastRuns, root: stop.root, cwdOf };
  return { judged, tampering, timedOutBefore, runs };
}
