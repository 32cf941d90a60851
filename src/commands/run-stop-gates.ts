import { join, relative } from 'node:path';
import { ConfigError } from '../config/config-problem.js';
import { loadConfig, type ResolvedConfig } from '../config/load-config.js';
import { decideStop, describeOutcome } from '../decide-stop.js';
import { filterOutput } from '../filters/filter-output.js';
import { messages } from '../messages.js';
import { selectGates, type ChangeSet } from '../plan/select-gates.js';
import { renderReport } from '../report/render-report.js';
import type { GateResult } from '../runner/gate-result.js';
import { runGates } from '../runner/run-gates.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { passedPath, readSession, writePassed, writeSession, type SessionState } from '../state/session-state.js';
import { lockStop } from '../state/stop-lock.js';
import { readVerdicts, rememberVerdicts, verdictKey, verdictsPath } from '../state/verdict-cache.js';
import type { HotContext } from './run.js';

export interface StopContext extends HotContext {
  /** The directory changed paths are relative to: the repository root (or the config's directory outside git). */
  root: string;
  stateDir: string;
  sessionFile: string;
  state: SessionState;
  /** Absent outside git, where there is nothing to compare. */
  snapshot: Snapshot | undefined;
  change: ChangeSet;
  notices: string[];
}

/** The slow half of a stop: something relevant changed, so load the config and run the gates. */
export async function runStopGates(stop: StopContext): Promise<number> {
  const { output, state, snapshot } = stop;
  let config: ResolvedConfig;
  try {
    config = loadConfig(stop.configFiles, stop.projectDir);
  } catch (error) {
    if (error instanceof ConfigError) return output.notice(messages.configInvalid(error.message));
    throw error;
  }
  if (stop.payload.event === 'subagent-stop' && !config.subagents) return output.allow();

  const budgetMs = (config.gates.reduce((sum, gate) => sum + gate.timeoutSeconds, 0) + 30) * 1000;
  const lock = await lockStop(`${stop.sessionFile}.lock`, snapshot?.digest ?? 'outside-git', budgetMs);
  if (lock.kind === 'answered-elsewhere') return output.allow();
  try {
    return await checkStop(stop, config);
  } finally {
    lock.release();
  }
}

async function checkStop(stop: StopContext, config: ResolvedConfig): Promise<number> {
  const { output, snapshot } = stop;
  // Another run for this session may have finished while we waited for the lock: count from its result.
  const fresh = readSession(stop.sessionFile).value;
  const state: SessionState = fresh ? { ...fresh, hinted: fresh.hinted === true || stop.state.hinted === true } : stop.state;
  const skip = new Set((stop.env['GATE_SKIP'] ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  const selections = selectGates(config.gates, stop.change, stop.root, config.dir, skip, undefined);
  const verdicts = verdictsPath(stop.stateDir);
  const known = snapshot ? readVerdicts(verdicts) : [];
  const keys = new Map(snapshot ? selections.filter((s) => s.run).map((s) => [s.gate.name, verdictKey(stop.configFiles.hash, s, snapshot, stop.root, config.dir)]) : []);
  const cached = selections.filter((s) => s.run && known.includes(keys.get(s.gate.name) ?? ''));
  const ran = await runGates({
    selections: selections.filter((s) => !cached.includes(s)),
    concurrency: config.concurrency,
    projectDir: stop.projectDir,
    logDir: join(stop.stateDir, 'logs'),
    env: stop.env,
  });
  const results = [...cached.map((s) => cachedPass(s.gate.name, join(stop.stateDir, 'logs', `${s.gate.name}.log`))), ...ran];
  rememberVerdicts(
    verdicts,
    known,
    ran.filter((result) => result.status === 'passed').flatMap((result) => keys.get(result.name) ?? []),
  );
  const decision = decideStop(results, state.blocks, config.maxBlocks, config.onTimeout);
  const noVerdict = decision.noVerdict.map((result) => `${result.name} (${describeOutcome(result)})`);
  const notices = [...stop.notices, ...(noVerdict.length > 0 ? [messages.noVerdict(noVerdict)] : [])];

  if (decision.kind === 'block') {
    writeSession(stop.sessionFile, {
      baseline: state.baseline,
      blocks: state.blocks + 1,
      blockedDigest: snapshot?.digest,
      red: decision.failed.map((result) => result.name),
      hinted: state.hinted,
    });
    const report = renderReport({
      failed: decision.failed.map((result) => ({
        name: result.name,
        command: result.command,
        outcome: describeOutcome(result),
        filtered: filterOutput(result.filter, result.output),
        log: relative(stop.projectDir, result.logPath),
      })),
      gateCount: results.filter((result) => result.status !== 'skipped').length,
      block: state.blocks + 1,
      maxBlocks: config.maxBlocks,
      budget: config.budget,
    });
    return output.block(report + notChecked(decision.noVerdict));
  }

  writeSession(stop.sessionFile, { baseline: state.baseline, blocks: 0, hinted: state.hinted });
  if (decision.kind === 'escape') {
    notices.unshift(messages.escape(state.blocks, decision.failed.map((result) => result.name)));
  } else if (decision.passed && snapshot && results.length > 0) {
    writePassed(passedPath(stop.stateDir), { snapshot, configHash: stop.configFiles.hash });
  }
  return notices.length > 0 ? output.notice(notices.join('\n')) : output.allow();
}

function cachedPass(name: string, logPath: string): GateResult {
  return { name, status: 'passed', cached: true, command: '', exitCode: 0, signal: undefined, output: '', filter: 'generic', durationMs: 0, logPath, timeoutSeconds: 0 };
}

function notChecked(results: GateResult[]): string {
  if (results.length === 0) return '';
  return `(Not checked this time: ${results.map((result) => `${result.name}, ${describeOutcome(result)}`).join('; ')}.)\n`;
}
