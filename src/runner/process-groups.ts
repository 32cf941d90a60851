/**
 * Gates run in process groups of their own so that a timeout can kill a whole tree. Those groups
 * would outlive gate if a harness killed gate itself on its own timeout, so gate forwards the
 * signal to every group it started before it goes.
 */
const groups = new Set<number>();
let handlersInstalled = false;

export function trackGroup(pid: number): void {
  groups.add(pid);
  if (!handlersInstalled) {
    handlersInstalled = true;
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
      process.once(signal, () => {
        for (const group of groups) killGroup(group, 'SIGKILL');
        process.exit(signal === 'SIGINT' ? 130 : 143);
      });
    }
  }
}

export function untrackGroup(pid: number): void {
  groups.delete(pid);
}

/** Signals every process in the group; false when none is left. */
export function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
