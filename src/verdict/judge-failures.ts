import type { ResolvedGate } from '../config/load-config.js';
import { filterOutput } from '../filters/filter-output.js';
import type { GateResult } from '../runner/gate-result.js';
import { headSnapshot, type Snapshot } from '../snapshot/snapshot.js';
import type { RunningStopRecord } from '../state/running-stop.js';
import { passedPath, readPassed } from '../state/session-state.js';
import { type BaselineAnswer, baselineFailures, failureIds } from './baseline-failures.js';
import { environmentChanges, fingerprintEnvironment } from '../start/environment.js';
import { isOutputId } from './output-id.js';
import { rememberResults } from './remember-results.js';
import { stateKey, type StartState } from '../start/start-state.js';

export interface JudgeInput {
  root: string;
  projectDir: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  configHash: string;
  /** The tree now; undefined outside git. */
  snapshot: Snapshot | undefined;
  /** What the turn is measured from. */
  baseline: Snapshot | undefined;
  /** The same start with its whole tree and environment, when the prompt hook captured it. */
  start: StartState | undefined;
  deadline?: number | undefined;
  running?: RunningStopRecord | undefined;
}

export interface Judgement {
  /** Failed gates all of whose failures were there at the turn's baseline. */
  preExistingOnly: Set<string>;
  /** Lines for the report, per gate. */
  notes: Map<string, string[]>;
  /** How many of each gate's failures were there before the turn. */
  preExisting: Map<string, number>;
  /** Which of each gate's failures were there before the turn: the report leaves them out but for one line. */
  oldIds: Map<string, string[]>;
  flaky: string[];
  /** How long each gate's run on a copy of the start took (the stop log's `baselineMs`); none when memory answered. */
  baselineMs: Map<string, number>;
  /** Why a gate's failures could not be placed at the turn's start (the stop log's `baselineDoubt`): each counted as new. */
  doubts: Map<string, string>;
}

/**
 * Compares each failure, by identity, with the failures the gate had at the turn's start, and
 * remembers what this state showed for the next turn. Evidence is by state — the same files and
 * the same installed environment: a turn that changed the environment has no failure called old.
 * A failure nobody can place counts as new.
 */
export async function judgeFailures(input: JudgeInput, gates: ResolvedGate[], results: GateResult[], concurrency: number): Promise<Judgement> {
  const judgement: Judgement = { preExistingOnly: new Set(), notes: new Map(), preExisting: new Map(), oldIds: new Map(), flaky: [], baselineMs: new Map(), doubts: new Map() };
  const environment = fingerprintEnvironment([...new Set([input.root, input.projectDir])], input.env);
  if (input.snapshot) rememberResults(input.stateDir, stateKey(input.snapshot.digest, environment), results);
  const checks: Array<{ result: GateResult; gate: ResolvedGate; ids: string[] }> = [];
  for (const result of results) {
    if (result.flaky) {
      const ids = filterOutput(result.filter, result.flaky.firstOutput).failures.map((failure) => failure.id);
      judgement.flaky.push(`${result.name} failed, then passed on run ${result.flaky.attempts}${ids.length > 0 ? `: ${ids.slice(0, 5).join(', ')}` : ''}`);
    }
    if (result.cached) continue;
    const ids = failureIds(result.status, result.filter, result.output);
    const gate = gates.find((candidate) => candidate.name === result.name);
    if (result.status !== 'failed' || ids === undefined || !gate || !input.baseline || input.baseline.digest === input.snapshot?.digest) continue;
    checks.push({ result, gate, ids });
  }
  if (checks.length === 0 || !input.baseline) return judgement;
  const baseline = input.baseline;
  const start = input.start?.digest === baseline.digest ? input.start : undefined;
  // The turn installed, upgraded or removed packages: a copy of the start borrows them as they are now.
  const changed = start === undefined ? [] : environmentChanges(start.environment, environment);
  if (changed.length > 0) {
    for (const { result } of checks) judgement.notes.set(result.name, [`This turn changed the environment the gates run in (${changed.join(', ')}): no failure counts as from before it.`]);
    return judgement;
  }
  // A baseline on which every gate passed needs no second look: the last tree that passed, or one of
  // the last few by content (a person committed what had just passed).
  const last = readPassed(passedPath(input.stateDir)).value;
  const passed = last?.snapshot.digest === baseline.digest ? last : await (await import('./passed-trees.js')).passedByContent(input.stateDir, input.root, baseline, input.configHash);
  // Only a gate known to pass in full there: one whose pass there was narrowed may have failed outside the part it ran.
  const passedThere = (name: string) => passed !== undefined && !(passed.unsure ?? []).includes(name);
  const tree = Object.keys(baseline.files).length === 0 ? (baseline.head ?? undefined) : start?.tree;
  const key = stateKey(baseline.digest, start?.environment ?? environment);
  // A tree passed by narrowed runs, with nothing of it to copy (no turn start): the commit it was made
  // on stands in for it, for a gate whose pass there did not cover the whole project.
  const stand = passed !== undefined && tree === undefined && baseline.head !== null ? { tree: baseline.head, key: stateKey(headSnapshot(baseline.head).digest, environment) } : undefined;
  // Side by side, as the gates ran: each is a run of its own on its own copy.
  const answers = await mapLimited(checks, Math.max(1, concurrency), async ({ result, gate, ids }): Promise<BaselineAnswer> => {
    if (passedThere(gate.name)) return { failing: [] };
    const started = Date.now();
    const answer = await baselineRun(input, { gate, ids, ...(stand ?? { tree, key }), failures: filterOutput(result.filter, result.output).failures });
    // The start was captured but could not be written to copy: the failures memory did not place are new, and the note says why.
    const unplaced = ids.some((id) => !(answer.failing ?? []).includes(id));
    if (tree === undefined && stand === undefined && start?.unwritten !== undefined && unplaced && answer.doubt === undefined) return { ...answer, doubt: `no copy of the turn's start could be made: ${start.unwritten}` };
    if (answer.copied) judgement.baselineMs.set(result.name, Date.now() - started);
    return answer;
  });
  checks.forEach(({ result, ids }, index) => {
    const answer = answers[index] ?? { failing: undefined };
    if (answer.doubt) {
      judgement.notes.set(result.name, [`Could not tell which failures were there before this turn (${answer.doubt}): each counts as new.`]);
      judgement.doubts.set(result.name, answer.doubt);
    }
    const before = answer.failing;
    if (before === undefined) return;
    const old = ids.filter((id) => before.includes(id));
    if (old.length === 0) return;
    const fresh = ids.length - old.length;
    judgement.preExisting.set(result.name, old.length);
    judgement.oldIds.set(result.name, old);
    if (fresh === 0) judgement.preExistingOnly.add(result.name);
    judgement.notes.set(result.name, [`Already failing before this turn (not caused by this change${fresh === 0 ? ', not blocking' : ''}): ${describeOld(old)}.`]);
  });
  return judgement;
}

// The report clips a line of its "failing before this turn too" section at 300 characters (a failed
// gate's note at 600): with the gate's name and the sentence around them, the names stay within this, each whole.
const OLD_NAMES_BUDGET = 160;

/** The old failures by name, as many whole names as fit (at most 10), then how many more. */
export function describeOld(old: string[]): string {
  if (old.some(isOutputId)) return 'the same output as at the start of the turn';
  const listed: string[] = [];
  let length = 0;
  for (const id of old.slice(0, 10)) {
    const shown = id.length > OLD_NAMES_BUDGET ? `${id.slice(0, OLD_NAMES_BUDGET - 1)}…` : id;
    if (listed.length > 0 && length + shown.length + 2 > OLD_NAMES_BUDGET) break;
    listed.push(shown);
    length += shown.length + 2;
  }
  const more = old.length - listed.length;
  return `${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** `work` over `items`, at most `limit` at once; results in the items' order. */
async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

type BaselineCheck = Pick<Parameters<typeof baselineFailures>[0], 'gate' | 'ids' | 'tree' | 'key' | 'failures'>;

/** The gate's failures on the turn's baseline, shown as running in `gate status` while it takes. */
async function baselineRun(input: JudgeInput, check: BaselineCheck): Promise<BaselineAnswer> {
  if (!input.baseline) return { failing: undefined };
  if (input.deadline !== undefined && Date.now() >= input.deadline) return { failing: undefined, doubt: "the stop's time was spent before its baseline check could run" };
  input.running?.start(check.gate.name, 'baseline');
  const full = input.env['GATE_BASELINE'] === 'full';
  const before = await baselineFailures({ root: input.root, stateDir: input.stateDir, env: input.env, full, deadline: input.deadline, ...check });
  input.running?.done(check.gate.name, before.failing === undefined ? 'no answer' : 'done');
  return before;
}
