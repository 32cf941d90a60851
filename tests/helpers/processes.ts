import { spawnSync } from 'node:child_process';

/** Some measurements read /proc or use GNU time, which only Linux has; macOS skips those tests. */
export const onLinux = process.platform === 'linux';

/** Whether the process still runs: a zombie (killed, not yet reaped) does not. `ps` answers alike on Linux and macOS. */
export function isRunning(pid: number): boolean {
  const ps = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  return ps.status === 0 && !ps.stdout.trim().startsWith('Z');
}

/**
 * Whether the process is gone within `deadlineMs`. A process sent SIGKILL is still listed as
 * running until the kernel schedules it to die: on a loaded machine that is not at once.
 */
export async function goneWithin(pid: number, deadlineMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  return true;
}
