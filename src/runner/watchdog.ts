import { realpathSync } from 'node:fs';

/**
 * coreutils `timeout`, run between gate and each gate's command: it kills the command's process
 * group at its deadline even when gate itself was killed with SIGKILL and could not (nothing else
 * is left to do it then). A small C program, a few milliseconds a gate. BusyBox's `timeout` signals
 * only the command, not its group, so it is not used; macOS has none (`gtimeout` with Homebrew's
 * coreutils): there, nothing bounds a gate whose gate process was SIGKILLed (docs/reliability.md).
 */
const PLACES = ['/usr/bin/timeout', '/bin/timeout', '/opt/homebrew/bin/gtimeout', '/usr/local/bin/gtimeout'];

let found: string | null | undefined;

export function watchdogProgram(): string | undefined {
  if (found === undefined) found = PLACES.find(isCoreutils) ?? null;
  return found ?? undefined;
}

/** `timeout`'s arguments before the command: SIGTERM to the group at `seconds`, SIGKILL `graceSeconds` later. */
export function watchdogArgs(seconds: number, graceSeconds: number): string[] {
  return ['-k', `${graceSeconds}s`, `${seconds}s`];
}

function isCoreutils(path: string): boolean {
  try {
    return !realpathSync(path).endsWith('busybox');
  } catch {
    return false;
  }
}
