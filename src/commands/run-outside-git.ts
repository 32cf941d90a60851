import { ConfigError } from '../config/config-problem.js';
import { loadConfig } from '../config/load-config.js';
import { sessionFileName } from '../state/session-file-name.js';
import { messages } from '../messages.js';
import { outsideGitStateDir } from '../state/outside-git-state-dir.js';
import { readSession, sessionPath, writeSession } from '../state/session-state.js';
import type { HotContext } from '../stop/stop-context.js';

/**
 * Outside git there is no way to tell what changed. By default gate does nothing there
 * (`outsideGit: "skip"`); with `"run"` every gate runs at every stop.
 */
export async function runOutsideGit(stop: HotContext): Promise<number> {
  let outsideGit;
  try {
    outsideGit = loadConfig(stop.configFiles, stop.projectDir).outsideGit;
  } catch (error) {
    if (error instanceof ConfigError) return stop.output.notice(messages.configInvalid(error.message));
    throw error;
  }
  if (outsideGit === 'skip' && stop.payload.event === 'stop') return allowUnchecked(stop, stop.configFiles.dir, messages.outsideGitSkipped(stop.projectDir));
  if (outsideGit === 'skip' || (stop.payload.event !== 'stop' && stop.payload.event !== 'subagent-stop')) return stop.output.allow();
  if (stop.payload.runningBackgroundTasks > 0 || stop.payload.notCompleted) return stop.output.allow();
  const stateDir = outsideGitStateDir(stop.configFiles.dir);
  const sessionFile = sessionPath(stateDir, sessionFileName(stop.payload.sessionId));
  const session = readSession(sessionFile);
  const { runStopGates } = await import('./run-stop-gates.js');
  return runStopGates({
    ...stop,
    root: stop.configFiles.dir,
    stateDir,
    sessionFile,
    state: session.value ?? { blocks: 0 },
    snapshot: undefined,
    baseline: undefined,
    change: { paths: [], all: true },
    notices: session.corrupt ? [messages.stateReset(sessionFile)] : [],
  });
}

/**
 * A stop outside git that gate does not check (`"outsideGit": "skip"`, or no config and no project
 * directory from the harness): recorded in the stop log of `dir`'s state folder, and said to the
 * human once per session, so that a stop gate never looked at is never silent.
 */
export function allowUnchecked(stop: Pick<HotContext, 'payload' | 'output' | 'trace'>, dir: string, message: string): number {
  const stateDir = outsideGitStateDir(dir);
  const session = sessionFileName(stop.payload.sessionId);
  const sessionFile = sessionPath(stateDir, session);
  Object.assign(stop.trace, { stateDir, session, event: 'stop', reason: 'not in a git repository' });
  if (readSession(sessionFile).value?.hinted) return stop.output.allow();
  writeSession(sessionFile, { blocks: 0, hinted: true });
  return stop.output.notice(message);
}
