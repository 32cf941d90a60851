
import { stopBudgetSeconds } from '../plan/stop-budget.js';
import { gitSpentMs, limitGit } from '../git/exec-git.js';
import { gatesDeadline, gitLimitAt, spentByGit } from '../plan/hook-time.js';
import { hookTimeoutSeconds } from './hook-timeout.js';
import { basename, } from 'node:path';
import { askingAt, askingReason, judgeAsking } from '../asking/decide-asking.js';
import { ConfigError } from '../config/config-problem.js';
import { loadConfigTree, type ConfigTree } from '../config/config-tree.js';
import { listConfigDirs } from '../config/list-config-dirs.js';
import type { ResolvedConfig, ResolvedGate } from '../config/load-config.js';
import { decideStop } from '../decide-stop.js';
import { messages } from '../messages.js';
import type { GateResult } from '../runner/gate-result.js';
import { readSession, type SessionState } from '../state/session-state.js';
import { recordIfKilled } from '../state/record-kill.js';
import { recordRunningStop, type RunningStopRecord } from '../state/running-stop.js';
import { lockStop } from '../state/stop-lock.js';
import { loadConfigCached } from '../state/config-cache.js';
import { checkScriptsOf } from '../tamper/check-scripts.js';
import { describeTampering } from '../tamper/describe-tampering.js';
import { findTampering } from '../tamper/find-tampering.js';
import { findRewrittenExpectations, type GateRun } from '../tamper/rewritten-expectations.js';
import type { TamperFinding } from '../tamper/tamper-finding.js';
import { judgeFailures } from '../verdict/judge-failures.js';
import type { LastRun } from '../verdict/last-gate-runs.js';
import type { StopContext } from './stop-context.js';
import { runSelectedGates } from '../stop/run-chosen-gates.js';
import { noticesFor, } from '../stop/tell.js';
import { traceDecision } from '../stop/trace-decision.js';
import { answerAllow, answerBlock, type StopFindings } from '../stop/answer.js';

export { gitLimitFor } from './hook-timeout.js';

/** What a kill must clean up: set as the stop takes it. */
interface Held {
  running?: RunningStopRecord;
  release?: () => void;
}

/** The slow half of a stop: something relevant changed, so load the config and run the gates. */
export async function runStopGates(stop: StopContext): Promise<number> {
  const held: Held = {};
  const stopListening = recordIfKilled(stop.trace, () => held.running?.gates() ?? [], () => {
    held.running?.end();
    held.release?.();
  });
  try {
    return await loadAndCheck(stop, held);
  } finally {
    stopListening();
  }
}

async function loadAndCheck(stop: StopContext, held: Held): Promise<number> {
  const { output, snapshot } = stop;
  let tree: ConfigTree;
  try {
    tree = await loadConfigTree({
      repoRoot: stop.root,
      rootFiles: stop.configFiles,
      change: stop.change,
      load: (files) => loadConfigCached(stop.stateDir, files, stop.projectDir),
      env: stop.env,
      ...(snapshot ? { listConfigDirs: () => listConfigDirs(stop.root) } : {}),
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      stop.trace.reason = 'config invalid';
      return output.notice(messages.configInvalid(error.message));
    }
    throw error;
  }
  const config = tree.root;
  stop.trace.reason = 'subagents are not gated';
  if (stop.payload.event === 'subagent-stop' && !config.subagents) return output.allow();

  const budgetMs = stopBudgetSeconds(tree.gates, config.declaredConcurrency) * 1000;
  // From when the gates begin (slow git before them spends the hook's margin, not a gate's timeout),
  // within the hook's own: the harness's timeout never ends a stop, nor a git call in it.
  const hookStart = Math.round(performance.timeOrigin);
  const event = stop.payload.event === 'subagent-stop' ? 'SubagentStop' : 'Stop';
  const hookTimeout = await hookTimeoutSeconds({ harness: stop.trace.harness, event, projectDir: stop.projectDir, configFiles: stop.configFiles, stateDir: stop.stateDir, budgetSeconds: budgetMs / 1000 });
  limitGit({ at: gitLimitAt(hookStart, hookTimeout) });
  const deadline = gatesDeadline({ hookStart, gatesStart: Date.now(), budgetMs, hookTimeoutSeconds: hookTimeout });
  const outOfTime = spentByGit(gitSpentMs());
  const lock = await lockStop(`${stop.sessionFile}.lock`, snapshot?.digest ?? 'outside-git', budgetMs + 30_000);
  stop.trace.reason = 'the same stop was checked by another run';
  if (lock.kind === 'answered-elsewhere') return output.allow();
  held.release = lock.release;
  const running = recordRunningStop(stop.stateDir, basename(stop.sessionFile, '.json'));
  held.running = running;
  try {
    return await checkStop({ ...stop, notices: [...stop.notices, ...tree.notices], running, deadline, ...(outOfTime ? { outOfTime } : {}) }, tree);
  } finally {
    running.end();
    lock.release();
  }
}

async function checkStop(stop: StopContext, tree: ConfigTree): Promise<number> {
  const config = tree.root;
  // Another run for this session may have finished while we waited for the lock: count from its result.
  const fresh = readSession(stop.sessionFile).value;
  const state: SessionState = fresh ? { ...fresh, hinted: fresh.hinted === true || stop.state.hinted === true } : stop.state;
  // The tamper check's git diff starts first: with a quick gate, it is what the stop waits for.
  const [scanned, { results, notes: rerunNotes, transient, loadLeftOut, loadFlaky }] = await Promise.all([lookForTampering(stop, config, tree.gates), runSelectedGates(stop, tree)]);
  // Tests that failed at the last block and pass now because their checks were edited (src/tamper/).
  const runs = (list: GateResult[]): GateRun[] => list.map((result) => ({ ...result, cwd: tree.gates.find((gate) => gate.name === result.name)?.cwd ?? stop.projectDir }));
  const tampering = [...scanned, ...(config.tamper === 'off' || !state.tests ? [] : findRewrittenExpectations(stop.root, state.tests, runs(results)))];
  const cwdOf = (name: string) => tree.gates.find((gate) => gate.name === name)?.cwd ?? stop.projectDir;
  const timedOut = results.filter((result) => result.status === 'timed-out').map((result) => result.name);
  const lastRuns = timedOut.length > 0 && config.onTimeout === 'once' ? (await import('../verdict/last-gate-runs.js')).lastGateRuns(stop.stateDir, timedOut) : new Map<string, LastRun>();
  const timedOutBefore = new Set(timedOut.filter((name) => lastRuns.get(name)?.status === 'timed-out'));
  const judged = { ...(await judgeFailures({ ...stop, configHash: stop.configFiles.hash, start: state.start }, tree.gates, results, config.concurrency)), transient, loadLeftOut, loadFlaky, lastRuns, root: stop.root, cwdOf };
  const decision = decideStop(results, state.blocks, config.maxBlocks, config.onTimeout, judged.preExistingOnly, config.tamper === 'block' && tampering.length > 0, timedOutBefore);
  const notices = [...stop.notices, ...rerunNotes, ...noticesFor(decision, judged), ...results.flatMap((result) => (result.leftRunning ? [messages.leftRunning(result.name, result.leftRunning)] : []))];
  // Once a session: the human adds a config, or has decided not to.
  const unnamed = tree.uncovered.filter((dir) => !state.named?.includes(dir));
  if (unnamed.length > 0) notices.push(messages.uncoveredPackages(unnamed));
  const named = unnamed.length > 0 ? [...(state.named ?? []), ...unnamed] : state.named;
  // whenAsking: the agent plans or asks the human instead of claiming to be done (src/asking/).
  const asking = decision.kind === 'block' ? askingAt(stop.payload, config.whenAsking) : undefined;
  const red = decision.kind === 'allow' ? [] : decision.failed.map((result) => result.name);
  const asked = asking === undefined ? undefined : judgeAsking(asking, red, state.asked, config.maxBlocks);
  const letThrough = asked?.letThrough === true;
  if (tampering.length > 0 && (decision.kind !== 'block' || letThrough)) notices.push(messages.tampering(describeTampering(tampering, 5)));
  traceDecision(stop, decision, results, judged, tampering, state.blocks);
  if (asking !== undefined && asked !== undefined) {
    stop.trace.reason = askingReason(asking, asked);
    if (letThrough) stop.trace.blocks = 0;
    else notices.push(messages.askedGated(asked.streak.stops - 1, asked.streak.red));
  }

  const found: StopFindings = { stop, tree, state, results, judged, decision, tampering, notices, named, asking, asked, runs };
  return decision.kind === 'block' && !letThrough ? answerBlock(found, decision) : answerAllow(found);
}

/** Tests skipped, deleted or emptied, checks weakened (a check script a gate runs too), gate's own config edited — since the turn's baseline. */
async function lookForTampering(stop: StopContext, config: ResolvedConfig, gates: ResolvedGate[]): Promise<TamperFinding[]> {
  if (config.tamper === 'off' || !stop.snapshot) return [];
  const scan = await findTampering(stop.root, stop.baseline?.head ?? stop.snapshot.head, stop.change.paths, stop.tamperScan, checkScriptsOf(gates, stop.root));
  return scan.findings;
}

