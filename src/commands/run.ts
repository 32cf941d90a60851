import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findRootConfig, type ConfigFiles } from '../config/find-config.js';
import { rawTamperSetting } from '../config/tamper-setting.js';
import { isGitError, limitGit } from '../git/exec-git.js';
import { isStateError } from '../state/state-files.js';
import { findRepo, operationInProgress, stateDirOf } from '../git/find-repo.js';
import { ADAPTERS, isHarnessName, type Adapter } from '../harness/adapters.js';
import { stopContextEvent } from '../harness/claude-stop-context.js';
import { hookOutput, type HookOutput } from '../hook/hook-output.js';
import { optionValue } from '../hook/option-value.js';
import { parsePayload, type HookPayload } from '../hook/parse-payload.js';
import { readPayload } from '../hook/read-payload.js';
import { sessionFileName } from '../state/session-file-name.js';
import { messages } from '../messages.js';
import { pickProjectDir } from '../hook/project-dir.js';
import type { ChangeSet } from '../plan/select-gates.js';
import { committedPaths } from '../snapshot/committed-paths.js';
import { changedPaths, headSnapshot } from '../snapshot/snapshot.js';
import { takeSnapshot, UNTRACKED_HINT_THRESHOLD } from '../snapshot/take-snapshot.js';
import { startScan } from '../tamper/start-scan.js';
import { passedPath, readPassed, readSession, sessionPath, writeSession, type SessionState } from '../state/session-state.js';
import { tracedOutput } from '../hook/traced-output.js';
import { recordTrace, startTrace, type StopTrace } from '../state/stop-trace.js';

/**
 * `gate run`: the hook. This module is the hot path — a stop with nothing new to check must cost
 * little more than starting Node and one `git status` — so everything else is imported lazily.
 * Whatever goes wrong here lets the stop through and tells the human; it never exits 2.
 */
export async function runHook(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const harness = optionValue(args, '--harness') ?? 'claude';
  const adapter = isHarnessName(harness) ? ADAPTERS[harness] : ADAPTERS.claude;
  const trace = startTrace(harness);
  let output = tracedOutput(hookOutput(adapter.protocol, process.stdout, process.stderr, adapter.blockStdout), trace);
  if (env['GATE'] === '0') return output.allow();
  try {
    if (!isHarnessName(harness)) return output.notice(messages.unknownHarness(harness));
    const { text } = readPayload();
    if (text.trim() === '') return output.notice(messages.badPayload());
    const payload = parsePayload(text, adapter, optionValue(args, '--event'));
    if (!payload.valid) return output.notice(messages.badPayload());
    // Claude Code ≥ 2.1.163 takes the block as additionalContext, with no "stop hook problem" shown.
    const stopContext = adapter.name === 'claude' && optionValue(args, '--event') === undefined ? stopContextEvent(env, payload.event) : undefined;
    if (payload.viaCopilot) output = tracedOutput(hookOutput('decision', process.stdout, process.stderr), trace);
    else if (stopContext) output = tracedOutput(hookOutput(adapter.protocol, process.stdout, process.stderr, adapter.blockStdout, stopContext), trace);
    return await handleEvent(payload, adapter, env, output, trace);
  } catch (error) {
    // A git call killed at the hook's time limit: an allowed, unchecked stop whose cause is the repository's.
    if (isGitError(error) && error.timedOut) {
      trace.reason = `${error.timedOut.command} timed out after ${error.timedOut.seconds} s`;
      return output.notice(messages.gitTimedOut(error.timedOut.command, error.timedOut.seconds, trace.event !== undefined));
    }
    trace.outcome = 'error';
    trace.reason = error instanceof Error ? error.message : String(error);
    if (isGitError(error)) return output.notice(messages.gitFailed(error.message));
    if (isStateError(error)) return output.notice(messages.stateUnwritable(error.message));
    return output.notice(messages.crashed(error instanceof Error ? error.message : String(error)));
  } finally {
    recordTrace(trace);
  }
}

async function handleEvent(payload: HookPayload, adapter: Adapter, env: NodeJS.ProcessEnv, output: HookOutput, trace: StopTrace): Promise<number> {
  // The harness's launch directory first (the payload's cwd follows the agent's `cd`).
  // Only the harness's own variables: Codex started inside a Claude Code session inherits CLAUDE_PROJECT_DIR.
  // GATE_PROJECT_DIR, when set, wins: `gate doctor` points the installed command at a throwaway repo.
  const fromEnv = ['GATE_PROJECT_DIR', ...adapter.projectEnv].map((name) => env[name]);
  const projectDir = pickProjectDir([...fromEnv, ...payload.dirs], process.cwd());
  const repo = findRepo(projectDir);
  let configFiles = findRootConfig(projectDir, repo?.root);
  // No config here: gate is not set up for this project (e.g. a user-level install), so it stays
  // silent; unless this session's turn started with one, which the turn then deleted.
  let configGone = false;
  if (!configFiles) {
    // Outside git, and no project directory from the harness: the agent's `cd` may have left the project. Said, and recorded.
    if (!repo && payload.event === 'stop' && fromEnv.every((dir) => !dir)) {
      return (await import('./run-outside-git.js')).allowUnchecked({ payload, output, trace }, projectDir, messages.outsideGitNoProject(projectDir));
    }
    const sessionFile = repo ? sessionPath(stateDirOf(repo), sessionFileName(payload.sessionId)) : undefined;
    if (!repo || sessionFile === undefined || !existsSync(sessionFile)) return output.allow();
    configFiles = (await import('./config-gone.js')).configAtStart(sessionFile, payload.event, repo.root, projectDir);
    if (!configFiles) return output.allow();
    configGone = true;
  }
  if (payload.viaCursor) {
    // Cursor runs this .claude hook and its own: when its own gates the stop, this copy stays out.
    const { cursorHookGates } = await import('../harness/cursor-owns-stop.js');
    if (cursorHookGates([...new Set([projectDir, repo?.root ?? projectDir])], env)) {
      trace.reason = "left to Cursor's own gate hook (.cursor/hooks.json)";
      return output.allow();
    }
  }
  if (payload.event === 'post-edit') {
    const { nudgeAfterEdit, rememberEdit } = await import('./post-edit.js');
    if (repo && payload.edit) rememberEdit(stateDirOf(repo), sessionFileName(payload.sessionId), repo.root, projectDir, payload.edit.path);
    // The gates that only read the tree, run while the agent goes on (src/commands/ahead.ts).
    if (repo && env['GATE_AHEAD'] !== '0') {
      const settleMs = Number(env['GATE_AHEAD_SETTLE_MS'] ?? AHEAD_SETTLE_MS);
      (await import('../runner/background-job.js')).startJob(stateDirOf(repo), 'ahead', sessionFileName(payload.sessionId), projectDir, env, 0, Number.isFinite(settleMs) ? settleMs : AHEAD_SETTLE_MS);
    }
    return nudgeAfterEdit({ edit: payload.edit, projectDir, root: repo?.root ?? configFiles.dir, configFiles, stdout: process.stdout });
  }
  const stop = { payload, env, output, projectDir, configFiles, trace, reportBytes: adapter.reportBytes };
  if (!repo) {
    const { runOutsideGit } = await import('./run-outside-git.js');
    return runOutsideGit(stop);
  }
  if (operationInProgress(repo)) return output.allow();

  const stateDir = stateDirOf(repo);
  const sessionFile = sessionPath(stateDir, sessionFileName(payload.sessionId));
  // git can hang on what the repository runs inside it (a core.fsmonitor hook, a clean filter): a
  // call still running after GIT_CHECK_IN_MS learns the hook's time limit, and is killed at it.
  const event = payload.event === 'turn-start' ? 'UserPromptSubmit' : payload.event === 'subagent-stop' ? 'SubagentStop' : 'Stop';
  const limits = { harness: adapter.name, event, projectDir, configFiles, stateDir } as const;
  limitGit({ at: Math.round(performance.timeOrigin) + GIT_CHECK_IN_MS, later: () => gitLimitFor(limits) });
  if (payload.event === 'turn-start') {
    // A streak of stops let through because the agent asked spans turns (each such stop ends one).
    const asked = readSession(sessionFile).value?.asked;
    const { snapshot } = await takeSnapshot(repo);
    const { captureStart } = await import('../verdict/capture-start.js');
    const start = await captureStart(repo, stateDir, snapshot, [...new Set([repo.root, projectDir])], env, configFiles);
    writeSession(sessionFile, { baseline: snapshot, start, blocks: 0, asked });
    // The start's failures, gathered while the agent works, unless every gate passed on it in full
    // (a narrowed pass says nothing of the rest: a failure there would need a copy at the stop).
    const passed = readPassed(passedPath(stateDir)).value;
    if (start.tree !== undefined && (passed?.snapshot.digest !== snapshot.digest || (passed.unsure ?? []).length > 0)) {
      const { startGathering } = await import('../verdict/start-evidence.js');
      startGathering(stateDir, sessionFileName(payload.sessionId), projectDir, env);
    }
    return output.allow();
  }
  if (payload.event !== 'stop' && payload.event !== 'subagent-stop') return output.allow();
  trace.stateDir = stateDir;
  trace.session = sessionFileName(payload.sessionId);
  trace.event = payload.event;
  trace.reason = 'background tasks still running';
  if (payload.runningBackgroundTasks > 0) return output.allow();
  trace.reason = 'the turn did not complete';
  if (payload.notCompleted) return output.allow();

  // The start's evidence gathering lives within its turn: the turn's stop, whatever it decides, ends it.
  if (existsSync(join(stateDir, 'evidence', `${trace.session}.pid`))) {
    (await import('../verdict/start-evidence.js')).endGathering(stateDir, trace.session);
  }
  // So do the checks ahead of it: what they finished is remembered, the rest the stop runs.
  if (existsSync(join(stateDir, 'ahead', `${trace.session}.pid`))) {
    (await import('../runner/background-job.js')).endJob(stateDir, 'ahead', trace.session, 2000);
  }
  const session = readSession(sessionFile);
  const state: SessionState = session.value ?? { blocks: 0 };
  const notices = session.corrupt ? [messages.stateReset(sessionFile)] : [];
  if (configGone) notices.push(messages.configGone(relative(repo.root, configFiles.team?.path ?? configFiles.local?.path ?? configFiles.dir)));
  const { snapshot, untracked } = await takeSnapshot(repo);
  if (untracked.count >= UNTRACKED_HINT_THRESHOLD && !state.hinted) {
    notices.push(messages.untrackedFlood(untracked.count, untracked.mostlyIn));
    state.hinted = true;
  }
  const passed = readPassed(passedPath(stateDir)).value;
  const alreadyPassed = passed?.snapshot.digest === snapshot.digest && passed.configHash === configFiles.hash;

  // The same stop a second time (Copilot runs its own hook and a Claude-format entry one after the
  // other): the first copy's answer stands for both (any one block blocks), and the count stays.
  if (payload.event === 'stop' && payload.firedAt !== undefined && payload.firedAt === state.answeredAt) {
    trace.reason = 'second copy of an answered stop';
    return output.allow();
  }
  if (payload.event === 'stop' && state.blockedDigest === snapshot.digest && state.blocks > 0) {
    trace.reason = 'unchanged since block';
    writeSession(sessionFile, { baseline: state.baseline, start: state.start, blocks: 0, answeredAt: payload.firedAt, hinted: state.hinted, named: state.named, asked: state.asked });
    return output.notice(messages.unchangedSinceBlock(state.red ?? []));
  }
  if (!alreadyPassed) {
    const baseline = state.baseline ?? passed?.snapshot ?? headSnapshot(snapshot.head);
    const committed = baseline.head === snapshot.head ? [] : await committedPaths(repo, baseline.head, snapshot.head);
    const change: ChangeSet = changedPaths(baseline, snapshot, committed);
    if (baseline.head !== snapshot.head && snapshot.head !== null && Object.keys(baseline.files).length > 0) {
      // What the baseline had uncommitted and a person then committed as it was (gate's own files
      // after `gate init`) is no change: only the paths that differ from their baseline content are.
      const { samePathsAt } = await import('../snapshot/same-as-committed.js');
      const candidates = change.paths.filter((path) => path in baseline.files && !(path in snapshot.files));
      const same = await samePathsAt(repo.root, snapshot.head, candidates, baseline.files);
      change.paths = change.paths.filter((path) => !same.has(path));
    }
    if (change.paths.some((path) => path === 'package.json' || path.endsWith('/package.json'))) {
      const { readManifestKeys } = await import('../plan/read-manifest-keys.js');
      change.manifestKeys = await readManifestKeys(repo.root, baseline, state.start, change.paths);
    }
    trace.changed = { count: change.paths.length, sample: change.paths.slice(0, 20) };
    if (change.all || change.paths.length > 0) {
      // The tamper check's git diff works while the rest of the stop loads: on a big repository it
      // takes as long as a quick gate. (Not for a subagent's stop, which is mostly not gated.)
      const early = payload.event === 'stop' && !tamperOff(configFiles);
      const tamperScan = early ? startScan(repo.root, baseline.head ?? snapshot.head, change.paths) : undefined;
      const { runStopGates } = await import('./run-stop-gates.js');
      return runStopGates({ ...stop, root: repo.root, stateDir, sessionFile, state, snapshot, baseline, change, notices, tamperScan });
    }
  }
  trace.reason = alreadyPassed ? 'already passed' : 'no change';
  if (state.blocks > 0 || session.corrupt || notices.length > 0) writeSession(sessionFile, { baseline: state.baseline, start: state.start, blocks: 0, hinted: state.hinted, named: state.named, asked: state.asked });
  return notices.length > 0 ? output.notice(notices.join('\n')) : output.allow();
}

/** The agent's next edit comes within this more often than not: a burst of edits starts one check ahead of the stop, at its end. */
const AHEAD_SETTLE_MS = 1500;

/** Nearly every `git status` ends within this: only a slower one pays for learning the hook's time limit. */
const GIT_CHECK_IN_MS = 1000;

/** The hook's timeout from Claude Code's settings (read by the bundle already); else the slow half sizes it from the config. */
async function gitLimitFor(limits: Parameters<typeof import('../stop/hook-timeout.js').gitLimitFor>[0]): Promise<number> {
  const fromSettings = limits.harness === 'claude' ? (await import('../harness/claude-hook-timeout.js')).claudeHookTimeout(limits.projectDir, limits.event) : undefined;
  if (fromSettings !== undefined) return (await import('../plan/hook-time.js')).gitLimitAt(Math.round(performance.timeOrigin), fromSettings);
  return (await import('./run-stop-gates.js')).gitLimitFor(limits);
}

/** `"tamper": "off"`: then no diff is started early. The slow half decides with the validated config either way. */
function tamperOff(files: ConfigFiles): boolean {
  return rawTamperSetting(files) === 'off';
}
