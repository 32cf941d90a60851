import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { ensureStateDir } from '../state/state-files.js';
import { dirname, relative } from 'node:path';
import type { ResolvedGate } from '../config/load-config.js';
import { activateProjectEnv } from './activate-project-env.js';
import { envCacheFile } from './ask-env-manager.js';
import { BoundedCapture } from './bounded-capture.js';
import { buildCommand, withRunEnv } from './build-command.js';
import { filterOutput } from '../filters/filter-output.js';
import { findProgram } from './find-program.js';
import { findSetupFault } from './setup-fault.js';
import type { GateResult } from './gate-result.js';
import { openLog } from './open-log.js';
import { beginBytecodeRun, bytecodeEnv, bytecodeFolder, noBytecodeEnv } from './python-bytecode.js';
import type { Recording } from '../fast/by-coverage/record-run.js';
import { killGroup, trackGroup, untrackGroup } from './process-groups.js';
import { killStrays, RUN_MARKER } from './kill-strays.js';
import { spawnGroup, withLocalBins } from './spawn-group.js';
import { skipsDependents, turboDryRun } from './turbo-dry-run.js';

const CAPTURE_LIMIT = 1024 * 1024;
const LOG_LIMIT = 16 * 1024 * 1024;
const KILL_GRACE_MS = 2000;

export interface RunGateOptions {
  gate: ResolvedGate;
  files: string[];
  projectDir: string;
  logPath: string;
  env: NodeJS.ProcessEnv;
  /** The gate's cache folder under gate's state (a fast tier's incremental data). */
  cacheDir: string;
  /** The full command, no fast tier: `gate check --all`, a baseline run, or a change not narrowed down. */
  full?: boolean;
  /** When the whole stop must be decided (epoch ms, see src/plan/stop-budget.ts): the gate's timeout is cut to what is left. */
  deadline?: number;
  /** Why the stop's time is gone, when known ("the hook's timeout was spent by git (12 s)"): said of a gate with none left. */
  outOfTime?: string;
  /** Folders another gate of this preset owns in this stop (src/plan/leave-to-packages.ts). */
  leaveOut?: readonly string[];
  /**
   * A full vitest or pytest run records what each test file executes (src/fast/by-coverage/); not a
   * baseline copy's run, whose paths no stop reads — except the start's evidence gathered during the
   * turn: a pytest run on a copy of the work tree's folder `standsFor`, recorded into `cacheDir`.
   */
  recordCoverage?: boolean | { standsFor: string; cacheDir: string };
  /** Python's .pyc files kept under gate's state (false: none read or written, as for a baseline copy, whose paths change each time). */
  pythonBytecode?: boolean;
}

/** Runs one gate in its own process group, with its timeout, capturing output bounded. */
export async function runGate({ gate: asConfigured, files, projectDir, logPath, cacheDir, env, full = false, deadline, outOfTime, leaveOut, recordCoverage = true, pythonBytecode = true }: RunGateOptions): Promise<GateResult> {
  const started = Date.now();
  const left = deadline === undefined ? Number.POSITIVE_INFINITY : Math.floor((deadline - started) / 1000);
  const gate = left < asConfigured.timeoutSeconds ? { ...asConfigured, timeoutSeconds: Math.max(left, 0) } : asConfigured;
  const base = { name: gate.name, filter: gate.filter, logPath, timeoutSeconds: gate.timeoutSeconds, exitCode: undefined, signal: undefined, output: '' };
  const cut = gate !== asConfigured ? ` (its ${asConfigured.timeoutSeconds} s cut to what was left of the stop's time)` : '';
  if (gate.timeoutSeconds <= 0) return { ...base, status: 'timed-out', command: String(gate.run), durationMs: 0, detail: outOfTime ?? "the stop's time was spent", outOfTime: true };
  const cwdProblem = checkCwd(gate.cwd);
  if (cwdProblem) return { ...base, status: 'not-started', command: String(gate.run), durationMs: 0, detail: cwdProblem };
  let command;
  try {
    command = await buildCommand(gate, files, { projectDir, cacheDir, full, ...(leaveOut ? { leaveOut } : {}) });
  } catch (error) {
    return { ...base, status: 'not-started', command: String(gate.run), durationMs: 0, detail: error instanceof Error ? error.message : String(error) };
  }
  if (command.nothingToRun) {
    return { ...base, status: 'skipped', command: command.display, durationMs: 0, detail: command.why ?? 'none of the changed files it checks exists any more', tier: command.why, narrowed: true };
  }
  if (command.argv.some((word) => word.includes(cacheDir))) ensureStateDir(cacheDir);

  ensureStateDir(dirname(logPath));
  // Recreated each run, owner-only: tools print paths, tokens and whatever else they like.
  const log = openLog(logPath);
  let logged = 0;
  const capture = new BoundedCapture(CAPTURE_LIMIT);
  const [program = '', ...args] = command.argv;
  const runId = randomBytes(8).toString('hex');
  // Python's .pyc files: never the tree's, whose times can't be trusted within a second; gate's own,
  // checked after each run (src/runner/python-bytecode.ts), or none for a baseline copy. A gate's own "env" may say otherwise.
  const bytecode = pythonBytecode ? bytecodeFolder(cacheDir) : undefined;
  const python = bytecode ? bytecodeEnv(bytecode) : noBytecodeEnv(cacheDir);
  // A git hook's GIT_DIR and friends (an agent run from one, a hook that exports them) would point a
  // gate's own git calls — a test suite making temp repositories — at this repository. A gate's own "env" may set them.
  const { GIT_DIR: _dir, GIT_WORK_TREE: _tree, GIT_INDEX_FILE: _index, GIT_PREFIX: _prefix, GIT_COMMON_DIR: _common, ...outer } = env;
  // The user's PYTHONDONTWRITEBYTECODE keeps .pyc files out of the tree: gate's are elsewhere.
  if (bytecode) delete outer['PYTHONDONTWRITEBYTECODE'];
  const ownEnv: NodeJS.ProcessEnv = withRunEnv({ ...outer, ...python, ...gate.env, NO_COLOR: '1', FORCE_COLOR: '0', [RUN_MARKER]: runId }, command.env);
  // A full vitest or pytest run records what each test file executes: a later stop narrows by it (src/fast/by-coverage/).
  const copy = typeof recordCoverage === 'object' ? recordCoverage : undefined;
  const records = copy ? gate.preset === 'pytest' : recordCoverage && (gate.preset === 'vitest' || gate.preset === 'pytest');
  const recording = records && !command.narrowed && !command.shell ? await startRecording(gate.preset as 'vitest' | 'pytest', copy?.cacheDir ?? cacheDir, gate.cwd, ownEnv, copy?.standsFor) : undefined;
  if (recording) Object.assign(ownEnv, recording.env);
  const firstWord = command.shell ? (program.trim().split(/\s+/)[0] ?? '') : program;
  const activated = await activateProjectEnv(gate, firstWord, ownEnv, envCacheFile(dirname(cacheDir)));
  const childEnv = activated.env;
  const checkBytecode = bytecode ? beginBytecodeRun(bytecode, runId, started) : undefined;
  const { child, exited } = spawnGroup(program, command.shell ? [] : args, {
    cwd: gate.cwd,
    env: childEnv,
    shell: command.shell,
    // Gate's own timer below acts first; `timeout` only if gate was killed before it could.
    watchdog: { seconds: gate.timeoutSeconds + KILL_GRACE_MS / 1000, graceSeconds: KILL_GRACE_MS / 1000 },
    onOutput: (chunk) => {
      capture.push(chunk);
      if (logged < LOG_LIMIT) {
        const part = chunk.subarray(0, LOG_LIMIT - logged);
        logged += part.length;
        log.write(part);
        if (logged >= LOG_LIMIT) log.write('\n[gate: log truncated here]\n');
      }
    },
  });
  const pid = child?.pid;
  if (pid !== undefined) trackGroup(pid, runId);

  let timedOut = false;
  let forceKill: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    if (pid === undefined) return;
    killGroup(pid, 'SIGTERM');
    forceKill = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
  }, gate.timeoutSeconds * 1000);
  // When the command itself exits, whatever it left behind in its group (a watcher, a hung
  // worker) is killed too: nothing a gate started outlives it, and the output pipe closes.
  child?.on('exit', () => {
    if (pid !== undefined) killGroup(pid, 'SIGKILL');
  });

  const result = await exited;
  clearTimeout(timer);
  clearTimeout(forceKill);
  if (pid !== undefined) untrackGroup(pid);
  // What left the group and held the output open after the command exited: killed, and named.
  const strays = result.outputHeld ? killStrays(runId) : [];
  // After whatever the run left running is gone: nothing of it writes a .pyc past the check.
  checkBytecode?.();
  const strayList = strays.map((stray) => `${stray.name} (pid ${stray.pid})`).join(', ');
  const leftRunning = strays.length > 0 ? `left running: ${strayList}, killed` : undefined;
  if (leftRunning) log.write(`\n[gate: ${leftRunning}]\n`);
  // The tasks turbo skipped after a failure, which its output never names: from its own dry run.
  const graph =
    !timedOut && result.exitCode !== undefined && result.exitCode !== 0 && gate.filter === 'turbo' && skipsDependents(command.argv, command.shell)
      ? await turboDryRun(command.argv, gate.cwd, childEnv, gate.timeoutSeconds * 1000 - (Date.now() - started))
      : undefined;
  const trailer = graph && graph.length > 0 ? `\n${graph.join('\n')}\n` : '';
  log.write(trailer);
  log.end();
  if (recording) finishRecording(recording, !timedOut && (result.exitCode === 0 || (result.exitCode === 1 && recording.failedTestsKept === true)), result.exitCode === 0 ? undefined : capture.text());

  const durationMs = Date.now() - started;
  const output = capture.text() + trailer;
  const { exitCode, signal } = result;
  const done = { ...base, command: command.display, output, exitCode, signal, durationMs, ...(strayList ? { leftRunning: strayList } : {}), ...(command.why ? { tier: command.why } : {}), ...(command.narrowed ? { narrowed: true } : {}) };
  if (timedOut) return { ...done, status: 'timed-out', detail: [`killed after ${gate.timeoutSeconds} s${cut}`, leftRunning].filter(Boolean).join('; ') };
  // Only the gate's own program missing is a setup problem; a program that ran and exited 127 failed.
  const missing = result.errorCode === 'ENOENT' ? program : exitCode === 127 && command.shell ? missingFirstWord(program, output, gate.cwd, childEnv['PATH'] ?? '') : undefined;
  if (missing !== undefined) {
    const venv = activated.projectEnv ? `${relative(projectDir, activated.projectEnv.bin) || activated.projectEnv.bin}, ` : '';
    return { ...done, status: 'not-started', detail: `"${missing}" was not found (is it installed, and ${venv ? `in ${venv}` : ''}on PATH or in node_modules/.bin?)` };
  }
  if (exitCode === undefined && signal === undefined) {
    return { ...done, status: 'not-started', detail: result.message };
  }
  // A task runner that could not start the work (the package manager missing, a script not there)
  // is a setup problem: never a failure the agent is told to fix.
  const fault = exitCode !== 0 ? findSetupFault(output) : undefined;
  if (fault && filterOutput(gate.filter, output).failures.length === 0) return { ...done, status: 'not-started', detail: `${fault.what}; ${fault.fix}` };
  // A check that lists what it finds and exits 0 (gofmt -d): what it printed is its failure.
  const printed = gate.outputFails === true && exitCode === 0 && capture.text().trim() !== '';
  if (printed) return { ...done, status: 'failed', detail: 'it exited 0, but what it prints is what it found' };
  return { ...done, status: exitCode === 0 ? 'passed' : 'failed', ...(leftRunning ? { detail: leftRunning } : {}) };
}

async function startRecording(preset: 'vitest' | 'pytest', cacheDir: string, cwd: string, env: NodeJS.ProcessEnv, standsFor: string | undefined): Promise<Recording | undefined> {
  try {
    if (preset === 'pytest') return (await import('../fast/by-coverage/record-pytest-run.js')).startPytestRecording(cacheDir, cwd, env, standsFor);
    return (await import('../fast/by-coverage/record-run.js')).startRecording(cacheDir, cwd, env);
  } catch {
    return undefined; // no record: later stops narrow by the import graph alone
  }
}

/** Only a passing run, or one whose failed tests are known (left out of it), adds to the record: a test left out later must pass as it did then. */
function finishRecording(recording: Recording, passed: boolean, output: string | undefined): void {
  try {
    if (passed) recording.finish(output);
    else recording.discard();
  } catch {
    // A record not written leaves the last one, which is keyed by content and still holds.
  }
}

function checkCwd(cwd: string): string | undefined {
  try {
    return statSync(cwd).isDirectory() ? undefined : `its cwd ${cwd} is not a directory`;
  } catch {
    return `its cwd ${cwd} does not exist`;
  }
}

/**
 * A run string's first word, when sh exited 127 because that program is missing: sh said
 * "WORD: not found" (dash) or "WORD: command not found" (bash), and no such program is on PATH.
 * A builtin, an assignment or a later command sh could not find is not the gate's own program.
 */
function missingFirstWord(line: string, output: string, cwd: string, path: string): string | undefined {
  const word = /^\s*([^\s;&|()<>'"`$\\=]+)(?=[\s;&|()<>]|$)/.exec(line)?.[1];
  if (word === undefined || 'found' in findProgram(word, cwd, withLocalBins(path, cwd))) return undefined;
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[\\s:])${escaped}: (command )?not found`, 'm').test(output) ? word : undefined;
}
