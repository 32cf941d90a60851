import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The variable every gate command gets (GATE_RUN_ID=<random>): how what it started is found again. */
export const RUN_MARKER = 'GATE_RUN_ID';

export interface Stray {
  pid: number;
  name: string;
}

/**
 * Kills what a gate run left behind holding its output: processes that carry this run's marker in
 * their environment (a child that left the process group with setsid keeps it) and still have a
 * pipe or socket as stdout or stderr. A daemon that let go of its output (dmypy) is left alone: it
 * is meant to outlive the stop. Linux only (/proc); elsewhere nothing is found.
 */
export function killStrays(runId: string, platform: NodeJS.Platform = process.platform): Stray[] {
  if (platform !== 'linux') return [];
  const marker = Buffer.from(`${RUN_MARKER}=${runId}\0`);
  const killed: Stray[] = [];
  for (const entry of list('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = read(`/proc/${entry}/environ`);
    if (!environ || !(environ.subarray(0, marker.length).equals(marker) || environ.includes(Buffer.concat([Buffer.from([0]), marker])))) continue;
    if (!holdsOutput(entry)) continue;
    const pid = Number(entry);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      continue;
    }
    killed.push({ pid, name: read(`/proc/${entry}/comm`)?.toString('utf8').trim() || 'a process' });
  }
  return killed.sort((a, b) => a.pid - b.pid);
}

function holdsOutput(pid: string): boolean {
  return [1, 2].some((fd) => {
    try {
      return /^(pipe|socket):/.test(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      return false;
    }
  });
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function read(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
