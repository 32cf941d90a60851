import { rmSync } from 'node:fs';
import { runAsBackgroundJob } from '../runner/background-job.js';
import { sessionFileName } from '../state/session-file-name.js';
import { optionValue } from '../hook/option-value.js';
import { passedPath, readPassed, readSession, sessionPath } from '../state/session-state.js';
import { rememberStartRun } from '../verdict/baseline-failures.js';
import { environmentChanges, fingerprintEnvironment } from '../start/environment.js';
import { pidFile, startKnown } from '../verdict/start-evidence.js';
import { stateKey } from '../start/start-state.js';
import { openProject, openTree } from './open-project.js';

/**
 * `gate evidence --session ID` (not for people: the prompt hook starts it in the background): each
 * gate not known to pass there in full, run in full on a copy of the session's captured start, one
 * after another, at the lowest priority, each result remembered under the start's tree and environment. Stops at the first sign that the
 * environment moved since the start (the copy borrows it live); a stop ends it with SIGTERM.
 */
export async function evidenceCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  // Ended by the stop: the exit handlers remove the copy.
  runAsBackgroundJob();
  const session = sessionFileName(optionValue(args, '--session'));
  const project = openProject(env['GATE_PROJECT_DIR'] ?? process.cwd());
  const repo = project.repo;
  if (!repo) return 0;
  try {
    const start = readSession(sessionPath(project.stateDir, session)).value?.start;
    if (start?.tree === undefined) return 0;
    // The start is the last tree that passed: only the gates whose pass there was narrowed are unknown.
    const passed = readPassed(passedPath(project.stateDir)).value;
    const unknown = (name: string) => passed?.snapshot.digest !== start.digest || (passed.unsure ?? []).includes(name);
    const key = stateKey(start.digest, start.environment);
    const dirs = [...new Set([repo.root, project.projectDir])];
    const unchanged = () => environmentChanges(start.environment, fingerprintEnvironment(dirs, env)).length === 0;
    const tree = await openTree(project, { paths: [], all: true });
    const base = { root: repo.root, stateDir: project.stateDir, tree: start.tree, key, env, stillValid: unchanged };
    const gates = tree.gates.filter((gate) => unknown(gate.name));
    for (const gate of gates) {
      if (startKnown(project.stateDir, key, [gate.name])) continue;
      if (!unchanged()) return 0;
      // Remembered only if the environment held still through the run: else it was a mix of two.
      await rememberStartRun({ ...base, gate });
    }
    // Then, with every gate's failures known, pytest's coverage record of the start (recording slows
    // the run 1.5-2.4×: the failures come first). A stop narrows by it instead of the last full run's.
    for (const gate of gates.filter((candidate) => candidate.preset === 'pytest')) {
      if (!unchanged()) return 0;
      await rememberStartRun({ ...base, gate, record: true });
    }
    return 0;
  } finally {
    rmSync(pidFile(project.stateDir, session), { force: true });
  }
}
