import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';

/**
 * gate's own work in the background while the agent works, one per session and kind: the start's
 * evidence (`gate evidence`, started by the prompt hook) and the checks ahead of the stop (`gate
 * ahead`, started after each edit). Each is its own detached gate process, its output nowhere,
 * known by a pid file under the state directory; the stop ends both.
 */
export type BackgroundJob = 'evidence' | 'ahead';

/**
 * In the job's own process: the lowest priority, and, when the stop ends it with SIGTERM (after the
 * runner's own handler has ended the gates' groups), an exit that runs the exit handlers.
 */
export function runAsBackgroundJob(): void {
  process.on('SIGTERM', () => setImmediate(() => process.exit(143)));
  try {
    setPriority(19);
  } catch {
    // Not allowed here: it runs at the priority it has.
  }
}

export function jobPidFile(stateDir: string, job: BackgroundJob, session: string): string {
  return join(stateDir, job, `${session}.pid`);
}

/**
 * Starts `gate <job> --session <session>`, ending the one before it; after `settleMs`, slept by a
 * shell that then becomes it (an edit in a burst ends a shell, not a Node that has loaded gate).
 * Never throws: it is only a head start.
 */
export function startJob(stateDir: string, job: BackgroundJob, session: string, projectDir: string, env: NodeJS.ProcessEnv, waitMs: number, settleMs = 0): void {
  if (process.argv[1] === undefined) return;
  try {
    endJob(stateDir, job, session, waitMs);
    const gate = [process.execPath, process.argv[1], job, '--session', session];
    const [program = process.execPath, ...args] = settleMs > 0 ? ['/bin/sh', '-c', 'sleep "$1"; shift; exec "$@"', `gate-${job}`, String(settleMs / 1000), ...gate] : gate;
    const child = spawn(program, args, { cwd: projectDir, detached: true, stdio: 'ignore', env: { ...env, GATE_PROJECT_DIR: projectDir } });
    child.on('error', () => {});
    if (child.pid === undefined) return;
    mkdirSync(join(stateDir, job), { recursive: true, mode: 0o700 });
    writeFileSync(jobPidFile(stateDir, job, session), `${child.pid}\n`);
    child.unref();
  } catch {
    // No head start: the stop does the work itself, as it would have.
  }
}

/**
 * Ends the session's job of that kind if it still runs (its runner kills the gates' process groups on
 * SIGTERM), waiting up to `waitMs` for it to exit, so that nothing of it still writes into gate's
 * state while the caller goes on.
 */
export function endJob(stateDir: string, job: BackgroundJob, session: string, waitMs: number): void {
  const file = jobPidFile(stateDir, job, session);
  let pid: number;
  try {
    pid = Number(readFileSync(file, 'utf8').trim());
  } catch {
    return;
  }
  rmSync(file, { force: true });
  if (!Number.isInteger(pid) || pid <= 1 || !isJob(pid, job)) return;
  try {
    // Its whole group (it was started detached: it leads one), so that a settling shell's `sleep` goes too.
    process.kill(-pid, 'SIGTERM');
  } catch {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      return;
    }
  }
  const until = Date.now() + waitMs;
  while (isJob(pid, job) && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
}

/**
 * Whether `pid` is that job still running. Where the system says what a process runs (Linux's
 * /proc), a pid reused by another program, or a zombie (its command line empty), is not; elsewhere,
 * any live process is.
 */
function isJob(pid: number, job: BackgroundJob): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(job);
  } catch {
    if (existsSync('/proc/self')) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}
