import { existsSync, readFileSync } from 'node:fs';
import { killStrays } from './kill-strays.js';

/**
 * Gates run in process groups of their own so that a timeout can kill a whole tree. Those groups
 * would outlive gate if a harness killed gate itself on its own timeout, so gate forwards the
 * signal to every group it started before it goes, and kills what left a group holding a gate's
 * output (src/runner/kill-strays.ts).
 */
const groups = new Map<number, string | undefined>();
let handlersInstalled = false;

/** `runId`: the gate command's GATE_RUN_ID, by which what left its group is found. */
export function trackGroup(pid: number, runId?: string): void {
  groups.set(pid, runId);
  if (!handlersInstalled) {
    handlersInstalled = true;
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
      process.once(signal, () => {
        for (const [group, runId] of groups) {
          killGroup(group, 'SIGKILL');
          if (runId !== undefined) killStrays(runId);
        }
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

/**
 * Kills each group and waits, synchronously (in an exit handler there is no later), until its
 * leader is dead, a second at most: what it was writing is then written, and can be removed.
 */
export function killGroupsAndWait(pids: Iterable<number>): void {
  const leaders = [...pids].filter((pid) => killGroup(pid, 'SIGKILL'));
  if (leaders.length === 0) return;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  // Without /proc (macOS) a zombie cannot be told from the living: a moment for the kill to land.
  if (!existsSync('/proc/self')) return void Atomics.wait(pause, 0, 0, 50);
  const until = Date.now() + 1000;
  while (leaders.some(isRunning) && Date.now() < until) Atomics.wait(pause, 0, 0, 5);
}

/** Not dead yet: a killed child stays a zombie ("Z") until reaped, which an exiting gate never does. */
function isRunning(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}
