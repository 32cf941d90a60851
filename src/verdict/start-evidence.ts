import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { failureMemoryPath, recallFailures } from './failure-memory.js';

/**
 * The start's evidence, gathered while the agent works: the prompt hook starts `gate evidence` in
 * the background (detached, at the lowest priority, its output nowhere), which runs every gate in
 * full on a copy of the start and remembers what each showed there. A stop that then blocks finds
 * the start's failures remembered instead of running a copy on its own critical path; a stop that
 * comes first ends it (src/commands/run-stop-gates.ts), and the stop's own copy runs as before.
 */
export function pidFile(stateDir: string, session: string): string {
  return join(stateDir, 'evidence', `${session}.pid`);
}

/** Whether every gate already has a full record on the start's state: then nothing is left to gather. */
export function startKnown(stateDir: string, key: string, gates: string[]): boolean {
  const memory = failureMemoryPath(stateDir);
  return gates.every((gate) => recallFailures(memory, key, gate, ['(any other failure)']).unchecked.length === 0);
}

/** Starts the gathering for `session`, unless GATE_EVIDENCE=0. Never throws: it is only a head start. */
export function startGathering(stateDir: string, session: string, projectDir: string, env: NodeJS.ProcessEnv): void {
  if (env['GATE_EVIDENCE'] === '0' || process.argv[1] === undefined) return;
  try {
    endGathering(stateDir, session);
    const child = spawn(process.execPath, [process.argv[1], 'evidence', '--session', session], { cwd: projectDir, detached: true, stdio: 'ignore', env: { ...env, GATE_PROJECT_DIR: projectDir } });
    child.on('error', () => {});
    if (child.pid === undefined) return;
    mkdirSync(join(stateDir, 'evidence'), { recursive: true, mode: 0o700 });
    writeFileSync(pidFile(stateDir, session), `${child.pid}\n`);
    child.unref();
  } catch {
    // No head start: the stop checks the start itself, as it would have.
  }
}

/** Ends a gathering still running for `session` (its runner kills the gates' process groups on SIGTERM). */
export function endGathering(stateDir: string, session: string): void {
  const file = pidFile(stateDir, session);
  let pid: number;
  try {
    pid = Number(readFileSync(file, 'utf8').trim());
  } catch {
    return;
  }
  rmSync(file, { force: true });
  if (!Number.isInteger(pid) || pid <= 1 || !isGathering(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  // Its runner ends the gates' process groups and the copy, then it exits: waited for (briefly), so
  // that nothing of it still writes into gate's state while the stop goes on or the repository goes.
  const until = Date.now() + 2000;
  while (isGathering(pid) && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
}

/**
 * Whether `pid` is a gathering still running. Where the system says what a process runs (Linux's
 * /proc), a pid reused by another program, or a zombie (its command line empty), is not; elsewhere,
 * any live process is.
 */
function isGathering(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('evidence');
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
