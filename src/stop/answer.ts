// The stop's phase that answers: at a block, the session's state, the report the agent reads and the
// human's notice; otherwise the state, the report kept for `gate verdict`, a pass remembered.
import { basename, relative } from 'node:path';
import type { Asking, AskingJudgement } from '../asking/decide-asking.js';
import type { StopContext } from './stop-context.js';
import type { ConfigTree } from '../config/config-tree.js';
import type { StopDecision } from './decide-stop.js';
import { messages } from '../messages.js';
import { changedNotEdited } from '../report/not-edited.js';
import { renderReminder } from '../report/repeat-report.js';
import type { GateResult } from '../runner/gate-result.js';
import { readEdits } from '../state/session-edits.js';
import { noteLetThrough, sessionReportPath, writeSessionReport } from '../state/session-report.js';
import { unsureGates } from './unsure-gates.js';
import { type PassedState, passedPath, readPassed, type SessionState, writePassed, writeSession } from '../state/session-state.js';
import { MAX_REMEMBERED_TESTS, type RememberedTest } from '../state/remembered-test.js';
import type { GateRun } from '../tamper/rewritten-expectations.js';
import type { TamperFinding } from '../tamper/tamper-finding.js';
import type { Judged } from './judge.js';
import { blockKey, renderStopReport, shownOutput } from './tell.js';

/** What the stop found and decided, for the answer. */
export interface StopFindings {
  stop: StopContext;
  tree: ConfigTree;
  /** The session's state as the stop began (or as another run of it left it). */
  state: SessionState;
  results: GateResult[];
  judged: Judged;
  decision: StopDecision;
  tampering: TamperFinding[];
  /** For the human, in order. */
  notices: string[];
  /** The uncovered package folders the human has been told of. */
  named: string[] | undefined;
  asking: Asking | undefined;
  asked: AskingJudgement | undefined;
  runs: (list: GateResult[]) => GateRun[];
  /** Gates left unrun as the same code as at the base: whether they pass is not known, so no pass is recorded. */
  sameCode: string[];
}

/** A refused stop: the state that counts the block, the report (or a reminder of it) to the agent. */
export async function answerBlock(found: StopFindings, decision: StopDecision & { kind: 'block' }): Promise<number> {
  const { stop, tree, state, results, judged, tampering, notices, named, asked, runs } = found;
  const { output, snapshot } = stop;
  const config = tree.root;
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

/** A stop let through: the state, and what `gate verdict` and the next stops need to know. */
export async function answerAllow(found: StopFindings): Promise<number> {
  const { stop, tree, state, results, judged, decision, tampering, notices, named, asking, asked } = found;
  const { output, snapshot } = stop;
  const config = tree.root;
  const letThrough = asked?.letThrough === true;
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
  } else if (decision.kind === 'allow' && decision.passed && snapshot && found.sameCode.length === 0 && (results.length > 0 || continuesLastPass(stop))) {
    // Tampering too: the human has just been told; a last pass left behind would tell it again at every later stop.
    const last = lastPass(stop);
    const passed = { snapshot, configHash: stop.configFiles.hash, unsure: unsureGates(tree.gates.map((gate) => gate.name), results, last === undefined ? undefined : (last.unsure ?? [])) };
    writePassed(passedPath(stop.stateDir), passed);
    (await import('../verdict/passed-trees.js')).rememberPassedTree(stop.stateDir, passed);
    // Imported only here: a receipt when this stop ran every gate of the repository in full (docs/receipts-and-ci.md).
    if (results.length > 0 && tampering.length === 0) {
      await (await import('../receipt/record-stop-receipt.js')).recordStopReceipt({ root: stop.root, stateDir: stop.stateDir, tree, results, snapshot });
    }
  }
  return notices.length > 0 ? output.notice(notices.join('\n')) : output.allow();
}

/**
 * A change that triggers no gate, measured from the last tree that passed, passes too. From any other
 * baseline (the turn's start, HEAD) nothing ran, so nothing is known to pass.
 */
function continuesLastPass(stop: StopContext): boolean {
  return lastPass(stop) !== undefined;
}

/** The last tree that passed, when the change is measured from it. */
function lastPass(stop: StopContext): PassedState | undefined {
  const passed = readPassed(passedPath(stop.stateDir)).value;
  return passed !== undefined && passed.snapshot.digest === stop.baseline?.digest && passed.configHash === stop.configFiles.hash ? passed : undefined;
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

