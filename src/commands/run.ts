import { findConfig } from '../config/find-config.js';
import { GitError } from '../git/exec-git.js';
import { findRepo, operationInProgress, stateDirOf } from '../git/find-repo.js';
import { claudeOutput, type HookOutput } from '../hook/hook-output.js';
import { parsePayload, type HookPayload } from '../hook/parse-payload.js';
import { readPayload } from '../hook/read-payload.js';
import { sessionFileName } from '../hook/session-file-name.js';
import { messages } from '../messages.js';
import { pickProjectDir } from '../project-dir.js';
import { committedPaths } from '../snapshot/committed-paths.js';
import { changedPaths, headSnapshot } from '../snapshot/snapshot.js';
import { takeSnapshot } from '../snapshot/take-snapshot.js';
import { passedPath, readPassed, readSession, sessionPath, writeSession, type SessionState } from '../state/session-state.js';

/**
 * `gate run`: the hook. This module is the hot path — a stop with nothing new to check must cost
 * little more than starting Node and one `git status` — so everything else is imported lazily.
 * Whatever goes wrong here lets the stop through and tells the human; it never exits 2.
 */
export async function runHook(env: NodeJS.ProcessEnv): Promise<number> {
  const output = claudeOutput(process.stdout, process.stderr);
  if (env['GATE'] === '0') return output.allow();
  try {
    const { text } = readPayload();
    if (text.trim() === '') return output.notice(messages.badPayload());
    const payload = parsePayload(text);
    if (!payload.valid) return output.notice(messages.badPayload());
    return await handleEvent(payload, env, output);
  } catch (error) {
    if (error instanceof GitError) return output.notice(messages.gitFailed(error.message));
    return output.notice(messages.crashed(error instanceof Error ? error.message : String(error)));
  }
}

async function handleEvent(payload: HookPayload, env: NodeJS.ProcessEnv, output: HookOutput): Promise<number> {
  const projectDir = pickProjectDir([env['CLAUDE_PROJECT_DIR'], payload.cwd], process.cwd());
  const repo = findRepo(projectDir);
  const configFiles = findConfig(projectDir, repo?.root);
  // No config here: gate is not set up for this project (e.g. a user-level install), so it stays silent.
  if (!configFiles) return output.allow();
  const stop = { payload, env, output, projectDir, configFiles };
  if (!repo) {
    const { runOutsideGit } = await import('./run-outside-git.js');
    return runOutsideGit(stop);
  }
  if (operationInProgress(repo)) return output.allow();

  const stateDir = stateDirOf(repo);
  const sessionFile = sessionPath(stateDir, sessionFileName(payload.sessionId));
  if (payload.event === 'UserPromptSubmit') {
    writeSession(sessionFile, { baseline: await takeSnapshot(repo), blocks: 0 });
    return output.allow();
  }
  if (payload.event !== 'Stop' && payload.event !== 'SubagentStop') return output.allow();
  if (payload.runningBackgroundTasks > 0) return output.allow();

  const session = readSession(sessionFile);
  const state: SessionState = session.value ?? { blocks: 0 };
  const notices = session.corrupt ? [messages.stateReset(sessionFile)] : [];
  const snapshot = await takeSnapshot(repo);
  const passed = readPassed(passedPath(stateDir)).value;
  const alreadyPassed = passed?.snapshot.digest === snapshot.digest && passed.configHash === configFiles.hash;

  if (payload.event === 'Stop' && state.blockedDigest === snapshot.digest && state.blocks > 0) {
    writeSession(sessionFile, { baseline: state.baseline, blocks: 0 });
    return output.notice(messages.unchangedSinceBlock(state.red ?? []));
  }
  if (!alreadyPassed) {
    const baseline = state.baseline ?? passed?.snapshot ?? headSnapshot(snapshot.head);
    const committed = baseline.head === snapshot.head ? [] : await committedPaths(repo, baseline.head, snapshot.head);
    const change = changedPaths(baseline, snapshot, committed);
    if (change.all || change.paths.length > 0) {
      const { runStopGates } = await import('./run-stop-gates.js');
      return runStopGates({ ...stop, root: repo.root, stateDir, sessionFile, state, snapshot, change, notices });
    }
  }
  if (state.blocks > 0 || session.corrupt) writeSession(sessionFile, { baseline: state.baseline, blocks: 0 });
  return notices.length > 0 ? output.notice(notices.join('\n')) : output.allow();
}

export type HotContext = {
  payload: HookPayload;
  env: NodeJS.ProcessEnv;
  output: HookOutput;
  projectDir: string;
  configFiles: NonNullable<ReturnType<typeof findConfig>>;
};
