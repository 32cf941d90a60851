import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ResolvedGate } from '../config/load-config.js';
import { loadPresets } from '../config/load-presets.js';
import { optionValue } from '../hook/option-value.js';
import { jobPidFile, runAsBackgroundJob } from '../runner/background-job.js';
import type { GateResult } from '../runner/gate-result.js';
import { runGates } from '../runner/run-gates.js';
import { environmentChanges, fingerprintEnvironment } from '../start/environment.js';
import { aheadResultsPath, writeAheadResults } from '../state/ahead-results.js';
import { sessionFileName } from '../state/session-file-name.js';
import { readSession, sessionPath } from '../state/session-state.js';
import { planStopGates } from '../stop/run-chosen-gates.js';
import { takeSnapshot } from '../snapshot/take-snapshot.js';
import { changeSinceBaseline, openProject, openTree } from './open-project.js';

/**
 * Presets whose command only reads the work tree (their caches live under gate's state or the
 * tool's own user cache): safe to run beside whatever the agent runs. Not the test runners (a test
 * may write files, bind a port, or race the agent's own run of it), nor cargo clippy (it locks
 * `target/`, which the agent's build waits on), nor turbo's and nx's tasks (they build what they
 * depend on).
 */
const READS_ONLY = new Set(['tsc', 'mypy', 'pyright', 'basedpyright', 'eslint', 'biome', 'prettier', 'ruff', 'ruff-format', 'black', 'isort', 'flake8', 'gofmt', 'go-vet', 'golangci-lint', 'cargo-fmt']);

/**
 * `gate ahead --session ID` (not for people: the post-edit hook starts it in the background once
 * the edits settle, each edit ending the one before): the stop's own plan for the tree as it is, and
 * of its gates those that only read the tree — type checkers, linters, format checks — run now, at
 * the lowest priority. Each result, pass or failure, is kept under the gate's verdict key (the
 * content it checked), and only if neither the tree nor the environment moved while it ran: a stop on
 * exactly that tree takes it as its own run of the gate; any other tree runs the gate at the stop.
 */
export async function aheadCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  runAsBackgroundJob();
  const session = sessionFileName(optionValue(args, '--session'));
  const project = openProject(env['GATE_PROJECT_DIR'] ?? process.cwd());
  const repo = project.repo;
  if (!repo) return 0;
  try {
    const state = readSession(sessionPath(project.stateDir, session)).value;
    // Only within a turn the prompt hook saw begin: the stop measures the change from that start.
    if (state?.baseline === undefined) return 0;
    const dirs = [...new Set([repo.root, project.projectDir])];
    const environment = fingerprintEnvironment(dirs, env);
    const found = await changeSinceBaseline(project, state.baseline, state.start);
    if (found.alreadyPassed || found.snapshot === undefined || (!found.change.all && found.change.paths.length === 0)) return 0;
    const tree = await openTree(project, found.change);
    const context = { root: repo.root, baseline: found.base, state, env, projectDir: project.projectDir, snapshot: found.snapshot, change: found.change, stateDir: project.stateDir, configFiles: project.configFiles };
    const plan = await planStopGates(context, tree);
    // Judged by the gate as configured: a narrowed selection's command names its files.
    const configured = new Map(tree.gates.map((gate) => [gate.name, gate]));
    const readOnly = (name: string) => readsOnly(configured.get(name));
    const chosen = plan.selections.filter((selection) => selection.run && readOnly(selection.gate.name) && !plan.known.includes(plan.keys.get(selection.gate.name) ?? ''));
    if (chosen.length === 0) return 0;
    const results = await runGates({ selections: chosen, concurrency: tree.root.concurrency, projectDir: project.projectDir, logDir: join(project.stateDir, 'logs'), cacheDir: join(project.stateDir, 'cache'), env });
    const after = await takeSnapshot(repo);
    if (after.snapshot.digest !== found.snapshot.digest || environmentChanges(environment, fingerprintEnvironment(dirs, env)).length > 0) return 0;
    // A verdict either way (a timeout or a missing program is the stop's to meet); a flaky pass is not one.
    const kept: Record<string, GateResult> = {};
    for (const result of results) {
      const key = plan.keys.get(result.name);
      if (key !== undefined && ((result.status === 'passed' && !result.flaky) || result.status === 'failed')) kept[key] = { ...result, ahead: true };
    }
    writeAheadResults(aheadResultsPath(project.stateDir), { environment, results: kept });
    return 0;
  } finally {
    forgetOwnPid(jobPidFile(project.stateDir, 'ahead', session));
  }
}

/** The pid file, if it still names this process: the next edit's run may have written its own. */
function forgetOwnPid(file: string): void {
  try {
    if (Number(readFileSync(file, 'utf8').trim()) === process.pid) rmSync(file, { force: true });
  } catch {
    // Gone already.
  }
}

/** A read-only preset's gate that kept the preset's own command. */
function readsOnly(gate: ResolvedGate | undefined): boolean {
  if (gate?.preset === undefined || !READS_ONLY.has(gate.preset) || gate.shell) return false;
  return isDeepStrictEqual(gate.run, loadPresets().get(gate.preset)?.run);
}
