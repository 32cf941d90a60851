import { spawnSync } from 'node:child_process';

/** Some measurements read /proc or use GNU time, which only Linux has; macOS skips those tests. */
export const onLinux = process.platform === 'linux';

/** Whether the process still runs: a zombie (killed, not yet reaped) does not. `ps` answers alike on Linux and macOS. */
export function isRunning(pid: number): boolean {
  const ps = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  return ps.status === 0 && !ps.stdout.trim().startsWith('Z');
}
