import { existsSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedGate } from '../config/load-config.js';
import type { Failure } from '../filters/filter.js';
import { filterOutput } from '../filters/filter-output.js';
import type { GateResult } from '../runner/gate-result.js';
import { gateFileName } from '../runner/gate-file-name.js';
import { runGate } from '../runner/run-gate.js';
import { filesToRun, type GateSelection } from '../plan/select-gates.js';
import type { RunningStopRecord } from '../state/running-stop.js';
import { isTestRunner } from '../plan/test-runners.js';
import { narrowBaseline } from '../verdict/narrow-baseline.js';

/**
 * Issue 37, point 6: a test that fails only under gate's load. A test runner's gate that failed while
 * other gates ran beside it runs once more, alone, on the failures the turn's change does not reach;
 * a failure that passes alone is flaky (load-sensitive) and does not block.
 */
export interface AloneOptions {
  root: string;
  /** Repository-relative paths the turn changed: a failure in one is never run again nor excused. */
  changed: readonly string[];
  /** The gates that ran while another gate ran (src/transient/overlap.ts): only their failures are looked at. */
  beside: ReadonlySet<string>;
  /** The stop's selections: each gate, and how the stop ran it. */
  selections: readonly GateSelection[];
  projectDir: string;
  /** gate's state folder: the rerun's log is `logs/NAME.alone.log`, beside the first run's. */
  stateDir: string;
  env: NodeJS.ProcessEnv;
  /** When the stop must be decided (epoch ms): a rerun that would not fit is not started, and one started is cut to it. */
  deadline?: number | undefined;
  /** `gate status` shows the rerun as running. */
  running?: Pick<RunningStopRecord, 'start' | 'done'> | undefined;
  now?: () => number;
  /** Runs a gate alone (tests: a stand-in); default: runGate with the options above. */
  runAlone?: (gate: ResolvedGate, narrowed: boolean) => Promise<GateResult>;
}

export interface AloneRerun {
  name: string;
  /** The failures run again alone. */
  tried: string[];
  /** Of those, the ones that passed alone: flaky (none: `noVerdict` says why). */
  flaky: string[];
  /** The failures the gate still counts (those that failed again, and those never run again). */
  counted: number;
  /** The rerun gave no verdict (timed out, ran no test, failed naming nothing): nothing excused. */
  noVerdict?: string;
}

/**
 * Looks at each failed test-runner gate that ran beside another, once. Its failures in files the
 * turn changed, and all of a run the fast tier narrowed to the tests the change reaches, are
 * neither run again nor excused. The rest run alone — only their test files, where the preset can
 * select them (src/verdict/narrow-baseline.ts); a gate that cannot is not run again. A gate all of whose
 * failures passed alone passed (flaky); one with others left keeps them, and `leftOut` has the ids
 * its report leaves out.
 */
export async function rerunLoadSensitive(results: GateResult[], options: AloneOptions): Promise<{ results: GateResult[]; reruns: AloneRerun[]; leftOut: Map<string, string[]> }> {
  const reruns: AloneRerun[] = [];
  const leftOut = new Map<string, string[]>();
  const replaced = new Map<string, GateResult>();
  const now = options.now ?? Date.now;
  const selectionOf = (name: string) => options.selections.find((selection) => selection.gate.name === name);
  const runAlone = options.runAlone ?? ((gate: ResolvedGate, narrowed: boolean) => runGateAlone(gate, narrowed ? undefined : selectionOf(gate.name), options));
  for (const result of results) {
    const gate = selectionOf(result.name)?.gate;
    if (result.status !== 'failed' || result.cached || result.narrowed || !options.beside.has(result.name) || !gate || !isTestRunner(gate) || gate.preset === undefined) continue;
    const filtered = filterOutput(result.filter, result.output);
    const all = filtered.failures;
    const tried = all.filter((failure) => !inChangedFile(failure, options.root, gate.cwd, options.changed));
    if (tried.length === 0) continue;
    // As long as its first run took, and the stop's deadline still after it: else the first result stands.
    if (options.deadline !== undefined && options.deadline - now() < Math.max(result.durationMs, MIN_RERUN_MS)) continue;
    // Only what fails, alone: a gate whose command cannot select its tests would run its whole suite a
    // second time at every block (the suite once per stop is a promise), so its first run stands.
    const narrowing = narrowFor(gate, tried);
    if (narrowing === undefined) continue;
    const again = await runAlone({ ...gate, run: narrowing, tier: undefined, shell: false }, true);
    const ids = tried.map((failure) => failure.id);
    const verdict = verdictOf(again, gate.preset);
    if (typeof verdict === 'string') {
      reruns.push({ name: result.name, tried: ids, flaky: [], counted: all.length, noVerdict: verdict });
      continue;
    }
    const flaky = [...new Set(ids.filter((id) => !verdict.includes(id)))];
    // Failed again, every one: the first run stands, as it was reported.
    if (flaky.length === 0) continue;
    reruns.push({ name: result.name, tried: ids, flaky, counted: all.filter((failure) => !flaky.includes(failure.id)).length });
    // The rerun stands for the whole first run when it ran every failure and the first output shows
    // nothing it does not name: a pass is a flake; a failure is reported as it failed alone, without the flaky ones.
    const whole = tried.length === all.length && filtered.itemOf !== undefined && filtered.items.every((_, item) => filtered.itemOf?.includes(item));
    if (whole && again.status === 'passed') {
      replaced.set(result.name, { ...result, status: 'passed', exitCode: 0, signal: undefined, flaky: { firstOutput: result.output, attempts: gate.retries + 2 } });
    } else if (whole) {
      replaced.set(result.name, { ...again, tier: RERUN_TIER });
    } else {
      leftOut.set(result.name, flaky);
    }
  }
  return { results: results.map((result) => replaced.get(result.name) ?? result), reruns, leftOut };
}

/** What the human is told of a rerun alone that found flaky tests, or had no verdict (one where all failed again is not told: nothing changed). */
export function describeAloneRerun(rerun: AloneRerun): string {
  const lead = `gate: ${rerun.name} failed while other gates ran beside it, so its ${plural(rerun.tried.length, 'failing test')} the change does not reach ran again alone`;
  if (rerun.noVerdict !== undefined) return `${lead}: ${rerun.noVerdict}, so every failure counts.`;
  const named = `${rerun.flaky.slice(0, 5).join(', ')}${rerun.flaky.length > 5 ? ` and ${rerun.flaky.length - 5} more` : ''}`;
  const rest = rerun.counted === 0 ? 'not blocking' : `left out of the report; ${rerun.counted === 1 ? 'its other failure still counts' : `its other ${rerun.counted} failures still count`}`;
  return `${lead}: flaky (passed alone, failed under load): ${named} — ${rest}.`;
}

const MIN_RERUN_MS = 1000;
const RERUN_TIER = 'its failing tests, run again alone: they failed beside other gates';

/**
 * One run of the gate, nothing else of gate's beside it: narrowed (no selection), its command as
 * given; else as the stop ran it. Its own log, so the report's stays the first run's.
 */
async function runGateAlone(gate: ResolvedGate, selection: GateSelection | undefined, options: AloneOptions): Promise<GateResult> {
  options.running?.start(gate.name);
  const result = await runGate({
    gate,
    ...(selection ? filesToRun(selection) : { files: [], full: true }),
    ...(selection?.leaveOut ? { leaveOut: selection.leaveOut } : {}),
    projectDir: options.projectDir,
    logPath: join(options.stateDir, 'logs', `${gateFileName(gate.name)}.alone.log`),
    cacheDir: join(options.stateDir, 'cache', gateFileName(gate.name)),
    env: options.env,
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
  });
  options.running?.done(gate.name, result.status);
  return result;
}

/** The failures the rerun had, or why it has no verdict. A pass that ran no test tells nothing. */
function verdictOf(again: GateResult, preset: string): string[] | string {
  if (again.status === 'passed') return ranNoTest(again.output, preset) ? 'it ran no test' : [];
  if (again.status !== 'failed') return again.status === 'timed-out' ? `it timed out (${again.detail ?? 'its timeout'})` : `it did not run (${again.detail ?? again.status})`;
  const ids = filterOutput(again.filter, again.output).failures.map((failure) => failure.id);
  return ids.length > 0 ? ids : 'it failed without naming a failure';
}

// What each runner prints when a selection matched no test (most exit 0 then, or with --passWithNoTests).
const NO_TEST: Array<[RegExp, RegExp]> = [
  [/^(vitest|turbo-test|nx-test)$/, /No test files found|No test suite found/],
  [/^jest$/, /No tests found/],
  [/^mocha$/, /^\s*0 passing/m],
  [/^node-test$/, /^(#|ℹ) tests 0$/m],
  [/^pytest$/, /no tests ran|collected 0 items/],
  [/^go-test$/, /no test files|testing: warning: no tests to run/],
];

function ranNoTest(output: string, preset: string): boolean {
  if (preset === 'cargo-test') return !/^running [1-9]\d* tests?$/m.test(output);
  return NO_TEST.some(([presets, text]) => presets.test(preset) && text.test(output));
}

/** The preset's full command with only these failures' tests, where the preset can select them. */
function narrowFor(gate: ResolvedGate, failures: Failure[]): string[] | undefined {
  if (gate.tier === undefined || gate.shell || !Array.isArray(gate.run)) return undefined;
  const exists = (path: string) => existsSync(join(gate.cwd, path));
  const narrowing = narrowBaseline({ preset: gate.preset, run: gate.run, cwd: gate.cwd, failures, existsNow: exists, existedBefore: exists, goModule: gate.preset === 'go-test' ? goModule(gate.cwd) : undefined });
  return narrowing.kind === 'narrowed' ? narrowing.argv : undefined;
}

function goModule(dir: string): string | undefined {
  try {
    return /^module\s+"?([^\s"]+)"?/m.exec(readFileSync(join(dir, 'go.mod'), 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * The failure is in a file the turn changed — or cannot be placed at all: no file named, or a bare
 * file name (go test prints `a_test.go`) that some changed file has.
 */
function inChangedFile(failure: Failure, root: string, cwd: string, changed: readonly string[]): boolean {
  const named = failure.file?.replace(/^\|[^|]+\|\s+/, '');
  if (named === undefined || named === '') return true;
  const file = named.startsWith('file://') ? fileURLToPath(named) : named;
  if (!file.includes('/') && !file.includes(sep)) {
    if (changed.some((path) => basename(path) === file)) return true;
  }
  const absolute = isAbsolute(file) ? file : resolve(cwd, file);
  const path = relative(root, absolute).split(sep).join('/');
  return changed.includes(path);
}

function plural(count: number, noun: string): string {
  return count === 1 ? noun : `${count} ${noun}s`;
}
