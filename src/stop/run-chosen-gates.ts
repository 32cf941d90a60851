// The stop's phase that runs the chosen gates: cached and reused passes first, then each gate, then the
// reruns that tell a failure of the shared tree or machine from one of the change.
import { join } from 'node:path';
import type { ConfigTree } from '../config/config-tree.js';
import { gateFileName } from '../runner/gate-file-name.js';
import { messages } from '../messages.js';
import { selectGates, type GateSelection } from '../plan/select-gates.js';
import { leaveToPackages } from '../plan/leave-to-packages.js';
import { skipUnchangedCode } from '../plan/skip-unchanged-code.js';
import { narrowBarrelAdditions } from '../plan/barrel-additions.js';
import { markKeptDeclarations } from '../plan/kept-declarations.js';
import type { GateResult } from '../runner/gate-result.js';
import { runGates } from '../runner/run-gates.js';
import { trackOverlap } from '../transient/overlap.js';
import { readVerdicts, rememberVerdicts, verdictKey, verdictsPath } from '../state/verdict-cache.js';
import { durationsPath, readDurations, rememberDurations } from '../state/gate-durations.js';
import { aheadResultsPath, readAheadResults } from '../state/ahead-results.js';
import { environmentChanges, fingerprintEnvironment } from '../start/environment.js';
import { describeContentPass, reuseContentPasses } from '../state/content-results.js';
import { skipDependentLint } from '../workspace/skip-dependent-lint.js';
import type { StopContext } from './stop-context.js';

/** What choosing a stop's gates reads: the stop's, or the checks' ahead of it (src/commands/ahead.ts). */
export type PlanContext = Pick<StopContext, 'root' | 'baseline' | 'state' | 'env' | 'projectDir' | 'snapshot' | 'change' | 'stateDir' | 'configFiles'>;

export interface GatePlan {
  selections: GateSelection[];
  /** Each gate's verdict key on this state: a pass under it is a cached pass. */
  keys: Map<string, string>;
  /** The keys with a pass remembered. */
  known: string[];
}

/** The triggered gates, narrowed as far as the change allows, and what a pass of each on this state is known by. */
export async function planStopGates(stop: PlanContext, tree: ConfigTree): Promise<GatePlan> {
  const { snapshot } = stop;
  const skip = new Set((stop.env['GATE_SKIP'] ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  const selected = leaveToPackages(skipDependentLint(selectGates(tree.gates, stop.change, stop.root, tree.scopes, skip, undefined), tree, stop.root));
  // A change in comments, formatting or types only runs no test; in comments and layout only, no type checker.
  const base = { root: stop.root, base: stop.baseline, start: stop.state.start, env: stop.env, projectDir: stop.projectDir };
  const narrowed = await narrowBarrelAdditions(await skipUnchangedCode(selected, base), base);
  const selections = await markKeptDeclarations(narrowed, base).catch(() => narrowed);
  const known = snapshot ? readVerdicts(verdictsPath(stop.stateDir)) : [];
  const keys = new Map(
    snapshot ? selections.filter((s) => s.run).map((s) => [s.gate.name, verdictKey(tree.hashes.get(s.gate.configDir) ?? stop.configFiles.hash, s, snapshot, stop.root)]) : [],
  );
  return { selections, keys, known };
}

/** The triggered gates, minus those with a cached pass on exactly this state, each with its retries. */
export async function runSelectedGates(stop: StopContext, tree: ConfigTree): Promise<Reruns> {
  const { snapshot } = stop;
  const config = tree.root;
  const { selections, keys, known } = await planStopGates(stop, tree);
  const verdicts = verdictsPath(stop.stateDir);
  // A dependent's pass on the same content of it and what it depends on is reused first: it says so.
  const reuse = snapshot ? reuseContentPasses(stop.stateDir, selections, tree, stop.configFiles.hash, snapshot, stop.root) : undefined;
  const cached = selections.filter((s) => s.run && !reuse?.passes.has(s.gate.name) && known.includes(keys.get(s.gate.name) ?? ''));
  // What the checks ahead of the stop found on exactly this tree and environment is this stop's run of those gates.
  const ahead = snapshot ? takeAheadResults(stop, selections.filter((s) => s.run && !reuse?.passes.has(s.gate.name) && !cached.includes(s)), keys) : [];
  // Which gates ran beside another: only their failures may be load's (src/transient/load-sensitive.ts).
  const overlap = trackOverlap();
  const durations = durationsPath(stop.stateDir);
  const expected = readDurations(durations);
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
      expected,
      onStart: (name) => {
        track?.start(name);
        stop.running?.start(name);
      },
      onDone: (result) => {
        track?.done(result.name);
        stop.running?.done(result.name, result.status);
      },
    });
  const first = await run(selections.filter((s) => !cached.includes(s) && !reuse?.passes.has(s.gate.name) && !ahead.some((result) => result.name === s.gate.name)), config.concurrency, overlap);
  rememberDurations(durations, expected, first);
  const { results: ran, notes, transient, loadLeftOut, loadFlaky } = await rerunIfTransient(stop, tree, first, async (name) => (await run(selections.filter((s) => s.run && s.gate.name === name), 1))[0], {
    beside: overlap.beside,
    selections,
  });
  rememberVerdicts(
    verdicts,
    known,
    [...ahead, ...ran].filter((result) => result.status === 'passed' && !result.flaky).flatMap((result) => keys.get(result.name) ?? []),
  );
  reuse?.remember(ran, new Date());
  const logOf = (name: string) => join(stop.stateDir, 'logs', `${gateFileName(name)}.log`);
  const reused = [...(reuse?.passes ?? [])].map(([name, pass]) => ({ ...cachedPass(name, logOf(name)), detail: describeContentPass(pass) }));
  const sameCode = selections.filter((s) => s.sameCode).map((s) => s.gate.name);
  return { results: [...cached.map((s) => cachedPass(s.gate.name, logOf(s.gate.name))), ...reused, ...ahead, ...ran], notes, transient, loadLeftOut, loadFlaky, sameCode };
}

/** The checks' ahead results for these gates' keys, if they ran in the environment there is now. */
function takeAheadResults(stop: StopContext, selections: GateSelection[], keys: Map<string, string>): GateResult[] {
  const found = readAheadResults(aheadResultsPath(stop.stateDir));
  if (found === undefined) return [];
  const results = selections.flatMap((s) => {
    const result = found.results[keys.get(s.gate.name) ?? ''];
    return result !== undefined && result.name === s.gate.name ? [result] : [];
  });
  if (results.length === 0) return [];
  const environment = fingerprintEnvironment([...new Set([stop.root, stop.projectDir])], stop.env);
  return environmentChanges(found.environment, environment).length === 0 ? results : [];
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
export interface Reruns {
  results: GateResult[];
  /** Gates not run because their changed files are the same code as at the base (src/plan/skip-unchanged-code.ts). */
  sameCode?: string[];
  notes: string[];
  /** Failures in files another gate made or removed: left out of the report. */
  transient: Map<string, string[]>;
  /** Failures that passed alone, left out of a report that still shows the first run. */
  loadLeftOut: Map<string, string[]>;
  /** Every failure that passed alone (flaky under load): for the stop log. */
  loadFlaky: Map<string, string[]>;
}

function cachedPass(name: string, logPath: string): GateResult {
  return { name, status: 'passed', cached: true, command: '', exitCode: 0, signal: undefined, output: '', filter: 'generic', durationMs: 0, logPath, timeoutSeconds: 0 };
}

