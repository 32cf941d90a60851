import { endJob, jobPidFile, startJob } from '../runner/background-job.js';
import { failureMemoryPath, recallFailures } from './failure-memory.js';

/**
 * The start's evidence, gathered while the agent works: the prompt hook starts `gate evidence` in
 * the background (detached, at the lowest priority, its output nowhere), which runs every gate in
 * full on a copy of the start and remembers what each showed there. A stop that then blocks finds
 * the start's failures remembered instead of running a copy on its own critical path; a stop that
 * comes first ends it (src/commands/run-stop-gates.ts), and the stop's own copy runs as before.
 */
export function pidFile(stateDir: string, session: string): string {
  return jobPidFile(stateDir, 'evidence', session);
}

/** Whether every gate already has a full record on the start's state: then nothing is left to gather. */
export function startKnown(stateDir: string, key: string, gates: string[]): boolean {
  const memory = failureMemoryPath(stateDir);
  return gates.every((gate) => recallFailures(memory, key, gate, ['(any other failure)']).unchecked.length === 0);
}

/** Starts the gathering for `session`, unless GATE_EVIDENCE=0. Never throws: it is only a head start. */
export function startGathering(stateDir: string, session: string, projectDir: string, env: NodeJS.ProcessEnv): void {
  if (env['GATE_EVIDENCE'] === '0') return;
  startJob(stateDir, 'evidence', session, projectDir, env, GATHERING_EXIT_MS);
}

/** Ends a gathering still running for `session`: waited for (briefly), so that nothing of it still writes into gate's state while the stop goes on or the repository goes. */
export function endGathering(stateDir: string, session: string): void {
  endJob(stateDir, 'evidence', session, GATHERING_EXIT_MS);
}

const GATHERING_EXIT_MS = 2000;
