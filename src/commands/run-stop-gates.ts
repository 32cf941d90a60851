import { failuresKey, renderReminder } from '../report/repeat-report.js';
import { stopBudgetSeconds } from '../plan/stop-budget.js';
import { gitSpentMs, limitGit } from '../git/exec-git.js';
import { gatesDeadline, gitLimitAt, spentByGit } from '../plan/hook-time.js';
import { hookTimeoutSeconds } from './hook-timeout.js';
import { basename, join, relative } from 'node:path';
import { askingAt, askingReason, judgeAsking } from '../asking/decide-asking.js';
import { ConfigError } from '../config/config-problem.js';
import { loadConfigTree, type ConfigTree } from '../config/config-tree.js';
import { listConfigDirs } from '../config/list-config-dirs.js';
import type { ResolvedConfig, ResolvedGate } from '../config/load-config.js';
import { gateFileName } from '../runner/gate-file-name.js';
import { decideStop, decisionReason, describeOutcome, type StopDecision } from '../decide-stop.js';
import { filterOutput } from '../filters/filter-output.js';
import { projectRunner } from '../package-manager.js';
import { messages } from '../messages.js';
import { selectGates, type GateSelection } from '../plan/select-gates.js';
import { leaveToPackages } from '../plan/leave-to-packages.js';
import { renderReportWithin } from '../report/render-report.js';
import { changedNotEdited } from '../report/not-edited.js';
import { skipUnchangedCode } from '../plan/skip-unchanged-code.js';
import { narrowBarrelAdditions } from '../plan/barrel-additions.js';
import { readEdits } from '../state/session-edits.js';
import { dropKnownFailures } from '../report/drop-known-failures.js';
import { placeGoTestFiles } from '../report/place-go-test-files.js';
import { isFileNow, placeTaskPaths, projectDirsOf } from '../report/place-task-paths.js';
import type { GateResult } from '../runner/gate-result.js';
import { runGates } from '../runner/run-gates.js';
import { trackOverlap } from '../transient/overlap.js';
import { passedPath, readPassed, readSession, writePassed, writeSession, type SessionState } from '../state/session-state.js';
import { noteLetThrough, sessionReportPath, writeSessionReport } from '../state/session-report.js';
import { recordIfKilled } from '../state/record-kill.js';
import { recordRunningStop, type RunningStopRecord } from '../state/running-stop.js';
import { lockStop } from '../state/stop-lock.js';
import { loadConfigCached } from '../state/config-cache.js';
import { checkScriptsOf } from '../tamper/check-scripts.js';
import { describeTampering } from '../tamper/describe-tampering.js';
import { findTampering } from '../tamper/find-tampering.js';
import { findRewrittenExpectations, type GateRun } from '../tamper/rewritten-expectations.js';
import { MAX_REMEMBERED_TESTS, type RememberedTest } from '../tamper/remembered-test.js';
import type { TamperFinding } from '../tamper/tamper-finding.js';
import { judgeFailures, type Judgement } from '../verdict/judge-failures.js';
import type { LastRun } from '../verdict/last-gate-runs.js';
import { readVerdicts, rememberVerdicts, verdictKey, verdictsPath } from '../state/verdict-cache.js';
import { describeContentPass, reuseContentPasses } from '../state/content-results.js';
import { skipDependentLint } from '../workspace/skip-dependent-lint.js';
import type { StopContext } from './stop-context.js';

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
  const { output, snapshot } = stop;
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

  if (decision.kind === 'block' && !letThrough) {
    const shown = blockKey(decision, judged, tampering);
    const repeated = state.blocks > 0 && shown.key !== undefined && state.reported?.key === shown.key;
    writeSession(stop.sessionFile, {
      baseline: state.baseline,
      start: state.start,
      blocks: state.blocks + 1,
      blockedDigest: snapshot?.digest,
      answeredAt: stop.payload.firedAt,
      red: decision.failed.map((result) => result.name),
      hinted: state.hinted,
      named,
      reported: shown.key === undefined ? undefined : repeated ? state.reported : { key: shown.key, block: state.blocks + 1 },
      asked: asked?.streak,
      // Imported only at a block: a test the turn wrote itself is not remembered (src/tamper/new-tests.ts).
      tests:
        config.tamper === 'off'
          ? undefined
          : keepRewritten(state.tests ?? [], tampering, await (await import('../tamper/remember-old-tests.js')).rememberOldFailingTests(stop.root, stop.baseline, stop.change, runs(decision.failed))),
    });
    const notEdited = changedNotEdited(
      decision.failed.map((result) => ({ cwd: tree.gates.find((gate) => gate.name === result.name)?.cwd ?? stop.projectDir, files: shownOutput(result, judged.oldIds.get(result.name) ?? [], judged).failures.flatMap((failure) => failure.file ?? []) })),
      stop.root,
      stop.change.paths,
      readEdits(stop.stateDir, basename(stop.sessionFile, '.json')),
    );
    const report = renderStopReport(stop, config, decision, results, judged, tampering, state.blocks + 1, notEdited, tree.gates);
    const toHuman = [messages.blocked(decision.failed.map((result) => result.name), state.blocks + 1, config.maxBlocks), ...notices].join('\n');
    const session = basename(stop.sessionFile, '.json');
    // The same failures as the report the agent already has (a block in a row): a reminder, not the report again.
    const repeat = repeated;
    if (!repeat) writeSessionReport(stop.stateDir, session, report);
    stop.trace.repeat = repeat;
    const reportPath = relative(stop.projectDir, sessionReportPath(stop.stateDir, session)) || sessionReportPath(stop.stateDir, session);
    const gateCount = results.filter((result) => result.status !== 'skipped').length;
    return output.block(
      repeat ? renderReminder({ gates: shown.gates, gateCount, block: state.blocks + 1, maxBlocks: config.maxBlocks, reportedAt: state.reported?.block ?? state.blocks, reportPath, root: stop.root }) : report,
      toHuman,
    );
  }

  // A stop let through because the agent asked extends the streak; a green one ends it.
  const streak = letThrough ? asked?.streak : decision.kind === 'allow' && decision.passed ? undefined : state.asked;
  writeSession(stop.sessionFile, { baseline: state.baseline, start: state.start, blocks: 0, hinted: state.hinted, named, answeredAt: stop.payload.firedAt, asked: streak });
  if (asking !== undefined && asked !== undefined && letThrough) {
    notices.unshift(messages.askedLetThrough(asking, asked.streak.red, asked.streak.stops, config.maxBlocks));
    // What `gate verdict` shows is what this stop found, not an older block's report.
    noteLetThrough(stop.stateDir, basename(stop.sessionFile, '.json'), notices.join('\n'), renderStopReport(stop, config, decision, results, judged, tampering, undefined, [], tree.gates));
  } else if (decision.kind === 'escape') {
    notices.unshift(messages.escape(state.blocks, decision.failed.map((result) => result.name)));
    noteLetThrough(stop.stateDir, basename(stop.sessionFile, '.json'), notices.join('\n'), renderStopReport(stop, config, decision, results, judged, tampering, undefined, [], tree.gates));
  } else if (decision.kind === 'allow' && decision.preExisting.length > 0) {
    // Red, if not by this turn: `gate verdict` fails, and shows this run rather than an older block's report.
    noteLetThrough(stop.stateDir, basename(stop.sessionFile, '.json'), notices.join('\n'), renderStopReport(stop, config, decision, results, judged, tampering, undefined, [], tree.gates));
  } else if (decision.kind === 'allow' && decision.passed && snapshot && (results.length > 0 || continuesLastPass(stop))) {
    // Tampering too: the human has just been told; a last pass left behind would tell it again at every later stop.
    writePassed(passedPath(stop.stateDir), { snapshot, configHash: stop.configFiles.hash });
    (await import('../verdict/passed-trees.js')).rememberPassedTree(stop.stateDir, { snapshot, configHash: stop.configFiles.hash });
    // Imported only here: a receipt when this stop ran every gate of the repository in full (docs/receipts-and-ci.md).
    if (results.length > 0 && tampering.length === 0) {
      await (await import('../receipt/record-stop-receipt.js')).recordStopReceipt({ root: stop.root, stateDir: stop.stateDir, tree, results, snapshot });
    }
  }
  return notices.length > 0 ? output.notice(notices.join('\n')) : output.allow();
}

/**
 * What this stop found, as the agent reads it at a block (`block`: its number), or, for a stop let
 * through red (`block` undefined), under a first line that refuses nothing.
 */
function renderStopReport(
  stop: StopContext,
  config: ResolvedConfig,
  decision: StopDecision,
  results: GateResult[],
  judged: Judged,
  tampering: TamperFinding[],
  block: number | undefined,
  notEdited: string[] = [],
  gates: ResolvedGate[] = [],
): string {
  const unchecked = notChecked(decision.noVerdict);
  // A stop allowed red shows the gates red before the turn, in full: none of it is the agent's.
  const failed = decision.kind === 'allow' ? decision.preExisting : decision.failed;
  const old = (name: string) => (decision.kind === 'allow' ? [] : (judged.oldIds.get(name) ?? []));
  const gateCount = results.filter((result) => result.status !== 'skipped').length;
  const projectDirs = projectDirsOf(stop.projectDir);
  const report = renderReportWithin(stop.reportBytes === undefined ? undefined : stop.reportBytes - Buffer.byteLength(unchecked), {
    failed: failed.map((result) => ({
      name: result.name,
      command: result.command,
      outcome: describeOutcome(result),
      cwd: gates.find((gate) => gate.name === result.name)?.cwd,
      filtered: placeTaskPaths(shownOutput(result, old(result.name), judged, projectRunner(stop.projectDir)), projectDirs, isFileNow),
      log: relative(stop.projectDir, result.logPath),
      notes: [
        ...(judged.notes.get(result.name) ?? []),
        ...transientNote(judged.transient.get(result.name)),
        ...loadFlakyNote(judged.loadLeftOut.get(result.name)),
        ...(result.status === 'timed-out' && config.onTimeout === 'once' ? [messages.timedOutOnce(result.timeoutSeconds, judged.lastRuns.has(result.name))] : []),
      ],
    })),
    gateCount,
    block: block ?? 0,
    maxBlocks: config.maxBlocks,
    budget: config.budget,
    ...(block === undefined ? { header: messages.letThroughHeader(failed.map((result) => result.name), gateCount) } : {}),
    sections: [
      ...(tampering.length > 0 ? [{ title: TAMPER_TITLE, lines: [TAMPER_LEAD, ...describeTampering(tampering)] }] : []),
      ...(notEdited.length > 0 ? [{ title: NOT_EDITED_TITLE, lines: [NOT_EDITED_LEAD, ...notEdited.slice(0, 10), ...(notEdited.length > 10 ? [`… and ${notEdited.length - 10} more`] : [])] }] : []),
      ...(decision.preExisting.length > 0 && decision.kind !== 'allow' ? [{ title: 'failing before this turn too (not blocking)', lines: decision.preExisting.map((result) => `${result.name}: ${judged.notes.get(result.name)?.join(' ') ?? ''}`) }] : []),
    ],
  });
  return report + unchecked;
}

/**
 * A failed gate's output as its report shows it: without the failures from before the turn, nor those
 * in files another gate made; a fix it names runs through `runner` (the project's: `pnpm exec` …);
 * go test's bare file names said from the gate's folder.
 */
function shownOutput(result: GateResult, old: string[], judged: Judged, runner?: string) {
  const filtered = placeGoTestFiles(filterOutput(result.filter, result.output, runner), judged.root, judged.cwdOf(result.name), isFileNow);
  return dropKnownFailures(filtered, new Set([...old, ...(judged.transient.get(result.name) ?? []), ...(judged.loadLeftOut.get(result.name) ?? [])]));
}

/** What identifies this block's failures for a repeat, when its report is nothing but them (src/report/repeat-report.ts). */
function blockKey(decision: StopDecision & { kind: 'block' }, judged: Judged, tampering: TamperFinding[]) {
  const gates = decision.failed.map((result) => ({ name: result.name, failures: shownOutput(result, judged.oldIds.get(result.name) ?? [], judged).failures }));
  const plain = tampering.length === 0 && decision.noVerdict.length === 0 && decision.preExisting.length === 0;
  return { gates, key: plain ? failuresKey(gates) : undefined };
}

function transientNote(ids: string[] | undefined): string[] {
  return ids === undefined ? [] : [messages.transientLeftOut(ids)];
}

function loadFlakyNote(ids: string[] | undefined): string[] {
  return ids === undefined || ids.length === 0 ? [] : [messages.loadFlakyLeftOut(ids)];
}

/** The judgement, the failures left out of the report because a rerun alone explained them, and each gate's folder (`cwdOf`), which its tool names files from. */
type Judged = Judgement & Omit<Reruns, 'results' | 'notes'> & { lastRuns: ReadonlyMap<string, LastRun>; root: string; cwdOf: (name: string) => string };

/**
 * A change that triggers no gate, measured from the last tree that passed, passes too. From any other
 * baseline (the turn's start, HEAD) nothing ran, so nothing is known to pass.
 */
function continuesLastPass(stop: StopContext): boolean {
  const passed = readPassed(passedPath(stop.stateDir)).value;
  return passed !== undefined && passed.snapshot.digest === stop.baseline?.digest && passed.configHash === stop.configFiles.hash;
}

/**
 * A test found rewritten passes now, so this block would forget it: kept with its lines from the
 * first block, so that the next stop looks again and the finding cannot slip through after one block.
 */
function keepRewritten(remembered: RememberedTest[], tampering: TamperFinding[], failing: RememberedTest[]): RememberedTest[] {
  const rewritten = new Set(tampering.filter((finding) => finding.kind === 'weakened-test').map((finding) => finding.path));
  const kept = remembered.filter((test) => rewritten.has(test.file));
  const fresh = failing.filter((test) => !kept.some((old) => old.gate === test.gate && old.id === test.id));
  return [...kept, ...fresh].slice(0, MAX_REMEMBERED_TESTS);
}

/** The triggered gates, minus those with a cached pass on exactly this state, each with its retries. */
async function runSelectedGates(stop: StopContext, tree: ConfigTree): Promise<Reruns> {
  const { snapshot } = stop;
  const config = tree.root;
  const skip = new Set((stop.env['GATE_SKIP'] ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  const selected = leaveToPackages(skipDependentLint(selectGates(tree.gates, stop.change, stop.root, tree.scopes, skip, undefined), tree, stop.root));
  // A change in comments, formatting or types only runs no test (the typecheck and lint gates still run).
  const base = { root: stop.root, base: stop.baseline, start: stop.state.start, env: stop.env };
  const selections = await narrowBarrelAdditions(await skipUnchangedCode(selected, base), base);
  const verdicts = verdictsPath(stop.stateDir);
  const known = snapshot ? readVerdicts(verdicts) : [];
  const keys = new Map(
    snapshot ? selections.filter((s) => s.run).map((s) => [s.gate.name, verdictKey(tree.hashes.get(s.gate.configDir) ?? stop.configFiles.hash, s, snapshot, stop.root)]) : [],
  );
  // A dependent's pass on the same content of it and what it depends on is reused first: it says so.
  const reuse = snapshot ? reuseContentPasses(stop.stateDir, selections, tree, stop.configFiles.hash, snapshot, stop.root) : undefined;
  const cached = selections.filter((s) => s.run && !reuse?.passes.has(s.gate.name) && known.includes(keys.get(s.gate.name) ?? ''));
  // Which gates ran beside another: only their failures may be load's (src/transient/load-sensitive.ts).
  const overlap = trackOverlap();
  const run = (chosen: GateSelection[], concurrency: number, track?: typeof overlap) =>
    runGates({
      selections: chosen,
      concurrency,
      projectDir: stop.projectDir,
      logDir: join(stop.stateDir, 'logs'),
      cacheDir: join(stop.stateDir, 'cache'),
      env: stop.env,
      deadline: stop.deadline,
      ...(stop.outOfTime ? { outOfTime: stop.outOfTime } : {}),
      // Half the cores' worth of test runners at once when the config sets no concurrency (src/plan/machine-cores.ts).
      ...(config.testRunners === undefined ? {} : { testRunners: config.testRunners }),
      onStart: (name) => {
        track?.start(name);
        stop.running?.start(name);
      },
      onDone: (result) => {
        track?.done(result.name);
        stop.running?.done(result.name, result.status);
      },
    });
  const first = await run(selections.filter((s) => !cached.includes(s) && !reuse?.passes.has(s.gate.name)), config.concurrency, overlap);
  const { results: ran, notes, transient, loadLeftOut, loadFlaky } = await rerunIfTransient(stop, tree, first, async (name) => (await run(selections.filter((s) => s.run && s.gate.name === name), 1))[0], {
    beside: overlap.beside,
    selections,
  });
  rememberVerdicts(
    verdicts,
    known,
    ran.filter((result) => result.status === 'passed' && !result.flaky).flatMap((result) => keys.get(result.name) ?? []),
  );
  reuse?.remember(ran, new Date());
  const logOf = (name: string) => join(stop.stateDir, 'logs', `${gateFileName(name)}.log`);
  const reused = [...(reuse?.passes ?? [])].map(([name, pass]) => ({ ...cachedPass(name, logOf(name)), detail: describeContentPass(pass) }));
  return { results: [...cached.map((s) => cachedPass(s.gate.name, logOf(s.gate.name))), ...reused, ...ran], notes, transient, loadLeftOut, loadFlaky };
}

/**
 * Gates share the work tree: a gate that failed only on files another gate made or removed while
 * they ran is run again alone, and that run counts (src/transient/). And they share the machine: a
 * test runner's gate that failed beside others runs the failures the change does not reach once
 * more alone, and those that pass are flaky (src/transient/load-sensitive.ts). At most one rerun
 * per gate; loaded only after a failure.
 */
async function rerunIfTransient(
  stop: StopContext,
  tree: ConfigTree,
  results: GateResult[],
  runAlone: (name: string) => Promise<GateResult | undefined>,
  load: { beside: ReadonlySet<string>; selections: GateSelection[] },
): Promise<Reruns> {
  const { snapshot } = stop;
  if (!results.some((result) => result.status === 'failed')) return { results, notes: [], transient: new Map(), loadLeftOut: new Map(), loadFlaky: new Map() };
  let found = { results, notes: [] as string[], transient: new Map<string, string[]>(), reran: new Set<string>() };
  if (snapshot) {
    const { rerunTransient } = await import('../transient/rerun-transient.js');
    const rerun = await rerunTransient(results, {
      root: stop.root,
      snapshot,
      changed: stop.change.paths,
      cwdOf: (name) => tree.gates.find((gate) => gate.name === name)?.cwd ?? stop.projectDir,
      rerun: runAlone,
    });
    const notes = rerun.reruns.map((again) => messages.transientRerun(again.name, again.files, again.status));
    found = { results: rerun.results, notes, transient: rerun.transient, reran: new Set(rerun.reruns.map((again) => again.name)) };
  }
  const { describeAloneRerun, rerunLoadSensitive } = await import('../transient/load-sensitive.js');
  const alone = await rerunLoadSensitive(found.results, {
    root: stop.root,
    changed: stop.change.paths,
    beside: new Set([...load.beside].filter((name) => !found.reran.has(name))),
    selections: load.selections,
    projectDir: stop.projectDir,
    stateDir: stop.stateDir,
    env: stop.env,
    deadline: stop.deadline,
    running: stop.running,
  });
  const loadFlaky = new Map(alone.reruns.filter((again) => again.flaky.length > 0).map((again) => [again.name, again.flaky]));
  return { results: alone.results, notes: [...found.notes, ...alone.reruns.map(describeAloneRerun)], transient: found.transient, loadLeftOut: alone.leftOut, loadFlaky };
}

/** The gates' results after their reruns, and per gate what the reruns alone found (src/transient/). */
interface Reruns {
  results: GateResult[];
  notes: string[];
  /** Failures in files another gate made or removed: left out of the report. */
  transient: Map<string, string[]>;
  /** Failures that passed alone, left out of a report that still shows the first run. */
  loadLeftOut: Map<string, string[]>;
  /** Every failure that passed alone (flaky under load): for the stop log. */
  loadFlaky: Map<string, string[]>;
}

const TAMPER_TITLE = 'tamper check: this change skips, deletes or weakens tests or checks';
const TAMPER_LEAD = 'Undo these unless the user asked for them:';
const NOT_EDITED_TITLE = 'changed during this turn, not by your edits';
const NOT_EDITED_LEAD = 'Another session, a person or a command you ran changed these. If you did not, leave them to whoever is editing them and tell the user:';

/** Tests skipped, deleted or emptied, checks weakened (a check script a gate runs too), gate's own config edited — since the turn's baseline. */
async function lookForTampering(stop: StopContext, config: ResolvedConfig, gates: ResolvedGate[]): Promise<TamperFinding[]> {
  if (config.tamper === 'off' || !stop.snapshot) return [];
  const scan = await findTampering(stop.root, stop.baseline?.head ?? stop.snapshot.head, stop.change.paths, stop.tamperScan, checkScriptsOf(gates, stop.root));
  return scan.findings;
}

/**
 * What the human is told about the gates besides the decision. One stop, one decision, said once:
 * a block, an escape or a stop let through because the agent asked say it in their own notice, and
 * on a plain allow only the first of these does.
 */
function noticesFor(decision: StopDecision, judged: Judgement): string[] {
  const notices: string[] = [];
  const allowed = () => decision.kind === 'allow' && notices.length === 0;
  const noVerdict = decision.noVerdict.map((result) => `${result.name} (${describeOutcome(result)})`);
  if (noVerdict.length > 0) notices.push(messages.noVerdict(noVerdict, allowed()));
  if (decision.preExisting.length > 0) notices.push(messages.preExisting(decision.preExisting.map((result) => result.name), allowed()));
  if (judged.flaky.length > 0) notices.push(messages.flaky(judged.flaky, allowed()));
  return notices;
}

/**
 * A narrowed test run that passed without running a test ("--passWithNoTests"): right for a change no
 * test reaches, a sign of a wrong root when one should have. Said in the stop log, where it is looked for.
 */
function ranNoTest(result: GateResult): boolean {
  return result.status === 'passed' && result.narrowed === true && /^\s*No test files found, exiting with code 0|^No tests found, exiting with code 0/m.test(result.output);
}

function traceDecision(stop: StopContext, decision: StopDecision, results: GateResult[], judged: Judged, tampering: TamperFinding[], blocksBefore: number): void {
  const trace = stop.trace;
  trace.path = results.some((result) => !result.cached) ? 'checked' : 'fast';
  trace.gates = results.map((result) => ({
    name: result.name,
    status: result.cached ? 'cached' : result.status,
    durationMs: result.durationMs,
    ...(result.detail ? { reason: result.detail } : {}),
    ...(result.tier ? { tier: `${result.tier}${ranNoTest(result) ? '; it found no test to run' : ''}` } : {}),
    ...(result.flaky ? { flaky: filterOutput(result.filter, result.flaky.firstOutput).failures.map((failure) => failure.id) } : judged.loadFlaky.has(result.name) ? { flaky: judged.loadFlaky.get(result.name) } : {}),
    ...(judged.preExisting.has(result.name) ? { preExisting: judged.preExisting.get(result.name) } : {}),
    ...(judged.baselineMs.has(result.name) ? { baselineMs: judged.baselineMs.get(result.name) } : {}),
  }));
  trace.blocks = decision.kind === 'block' ? blocksBefore + 1 : 0;
  if (tampering.length > 0) trace.tamper = { count: tampering.length, sample: tampering.slice(0, 10).map(({ path, line, kind, detail }) => ({ path, ...(line === undefined ? {} : { line }), kind, detail })) };
  if (decision.kind === 'escape') trace.outcome = 'escape';
  trace.reason = decisionReason(decision, results.length, tampering.length > 0, blocksBefore);
}

function cachedPass(name: string, logPath: string): GateResult {
  return { name, status: 'passed', cached: true, command: '', exitCode: 0, signal: undefined, output: '', filter: 'generic', durationMs: 0, logPath, timeoutSeconds: 0 };
}

function notChecked(results: GateResult[]): string {
  if (results.length === 0) return '';
  return `(Not checked this time: ${results.map((result) => `${result.name}, ${describeOutcome(result)}`).join('; ')}.)\n`;
}
