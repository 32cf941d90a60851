import type { ConfigFiles } from '../config/find-config.js';
import type { HookOutput } from '../hook/hook-output.js';
import type { HookPayload } from '../hook/parse-payload.js';
import type { ChangeSet } from '../plan/select-gates.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { RunningStopRecord } from '../state/running-stop.js';
import type { SessionState } from '../state/session-state.js';
import type { StopTrace } from '../state/stop-trace.js';
import type { StartedScan } from '../tamper/start-scan.js';

/** What the hot path knows about a stop when it hands over to the slow half. */
export interface HotContext {
  payload: HookPayload;
  env: NodeJS.ProcessEnv;
  output: HookOutput;
  projectDir: string;
  configFiles: ConfigFiles;
  trace: StopTrace;
  /** The harness's own limit on a block message, in UTF-8 bytes. */
  reportBytes: number | undefined;
}

export interface StopContext extends HotContext {
  /** The directory changed paths are relative to: the repository root (or the config's directory outside git). */
  root: string;
  stateDir: string;
  sessionFile: string;
  state: SessionState;
  /** Absent outside git, where there is nothing to compare. */
  snapshot: Snapshot | undefined;
  /** What the change was measured against (the turn's start, the last pass, or HEAD). */
  baseline: Snapshot | undefined;
  change: ChangeSet;
  notices: string[];
  /** The tamper check's git diff, started by the hot path for this change. */
  tamperScan?: StartedScan;
  /** What `gate status` shows of this stop while its gates run. */
  running?: RunningStopRecord;
  /** When the stop must be decided (epoch ms): its gates' and baseline checks' timeouts are cut to it (src/plan/stop-budget.ts). */
  deadline?: number;
  /** Why a gate with no time left at its start got none, when it is known: git took the hook's time. */
  outOfTime?: string;
}
