/**
 * passed · failed · timed-out · not-started (its program or its cwd missing) · skipped (nothing to run on).
 * Only "failed" is a verdict against the change; timed-out and not-started are "no verdict".
 */
export type GateStatus = 'passed' | 'failed' | 'timed-out' | 'not-started' | 'skipped';

export interface GateResult {
  name: string;
  status: GateStatus;
  /** The command as a person would type it, from the project directory. */
  command: string;
  exitCode: number | undefined;
  signal: string | undefined;
  /** Captured output (stdout and stderr interleaved), bounded. */
  output: string;
  filter: string;
  durationMs: number;
  /** Absolute path of the full log. */
  logPath: string;
  /** Why it did not start or was skipped, in words. */
  detail?: string;
  timeoutSeconds: number;
  /** Never started: no time was left of the stop's (`detail` says why). Counts as timed out. */
  outOfTime?: true;
  /** Why this command: the fast tier and what it ran, or why the full run (presets with a fast tier). */
  tier?: string;
  /** Ran on part of the project (a fast tier, or `{files}`), or found nothing to run on: not a full run. */
  narrowed?: boolean;
  /** Passed on exactly this tree and config before: not run again. */
  cached?: boolean;
  /** Ran on exactly this tree while the agent worked (src/commands/ahead.ts): the stop did not run it again. */
  ahead?: boolean;
  /** What the command left running that kept its output open after it exited, killed: `sleep (pid 12)`. */
  leftRunning?: string;
  /** Failed first, then passed on a retry: what the first failing run printed, and the runs it took. */
  flaky?: { firstOutput: string; attempts: number };
}
