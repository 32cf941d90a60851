import { existsSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { leaveOutArgs } from '../plan/leave-to-packages.js';
import { quoteCommand, splitCommand } from '../plan/split-command.js';
import type { ResolvedGate } from '../config/load-config.js';
import { planFastTier, type FastPlan } from '../fast/fast-plan.js';
import type { RunEnv } from '../fast/planner.js';
import { fsPath, hasRawBytes } from '../git/path-bytes.js';
import { projectRunner } from '../package/package-manager.js';
import { isPythonGate } from './activate-project-env.js';
import { findLocalEnv } from './project-env.js';
import { rawShellWord, spawnableArgv } from './raw-argv.js';
import { shownTargets } from './shown-targets.js';

export interface BuiltCommand {
  /** argv to spawn, or with `shell` a single command string in argv[0]. */
  argv: string[];
  shell: boolean;
  /** What a person (or the agent) would type from the project directory to rerun it. */
  display: string;
  /** Nothing to run: `{files}` was used and no changed file exists any more, or the change reaches no test. */
  nothingToRun: boolean;
  /** Why this command: the fast tier and what it narrowed the run to, or why the full run. */
  why: string | undefined;
  /** The preset's fast tier runs, not its full command. */
  fast: boolean;
  /** Runs on part of the project (a fast tier, or `{files}`): not a full run of the gate. */
  narrowed: boolean;
  /** What the run adds to its environment (a fast tier's): joined with the gate's own by withRunEnv. */
  env?: RunEnv;
}

export interface BuildOptions {
  projectDir: string;
  /** The gate's cache folder under gate's state: what `{cache}` expands to. */
  cacheDir: string;
  /** The full command: `gate check --all`, a baseline run, or a change that could not be narrowed down. */
  full?: boolean;
  /** Folders another gate of this preset owns in this stop: the full run leaves them out. */
  leaveOut?: readonly string[];
}

const FILES = '{files}';
const CACHE = '{cache}';

/**
 * The command to run for a gate: its own, or with a preset's fast tier what the tier's planner chose
 * (related tests, the changed files, an incremental cache, the packages the change reaches).
 */
export async function buildCommand(gate: ResolvedGate, files: string[], options: BuildOptions): Promise<BuiltCommand> {
  const built = await buildOnce(gate, files, options, false);
  const size = argvBytes(built.argv);
  if (size <= ARGV_LIMIT || !built.narrowed) return built;
  // Past the system's limit the spawn would fail (E2BIG) and leave no verdict: the full command.
  const full = await buildOnce(gate, files, { ...options, full: true }, true);
  const why = `${files.length} changed files make a command line too long (${Math.ceil(size / 1024)} KiB): ${full.why ?? 'the full run'}`;
  return { ...full, why, fast: false };
}

async function buildOnce(gate: ResolvedGate, files: string[], options: BuildOptions, tooLong: boolean): Promise<BuiltCommand> {
  const plan = await planFor(gate, files, options.full === true, options.cacheDir);
  if (plan?.kind === 'none') return { argv: [], shell: false, display: '', nothingToRun: true, why: plan.why, fast: true, narrowed: true };
  const fast = plan?.kind === 'fast';
  const run = plan?.run ?? gate.run;
  const found = plan?.kind === 'fast' ? plan.targets : files.filter((file) => existsSync(fsPath(join(gate.cwd, file))));
  // A changed file named "--write" must reach the tool as a file, never as an option.
  const named = plan === undefined || PATH_TIERS.has(gate.tier?.by ?? '') ? found.map(asPathArgument) : found;
  // A user's `{files}` with too many files for one command line: the whole directory instead.
  const targets = tooLong && plan === undefined && named.length > 0 ? ['.'] : named;
  const usesFiles = typeof run === 'string' ? run.includes(FILES) : run.some((word) => word.includes(FILES));
  const shell = gate.shell && plan === undefined;
  // The preset's own full command: folders a package's gate of the same tool checks are left to it.
  const leaving = !fast && !shell && gate.tier !== undefined && options.leaveOut ? leaveOutArgs(gate.preset, options.leaveOut) : [];
  const argv = [...expand(run, targets, shell, options.cacheDir), ...leaving];
  // What is shown names a few files: a command line of thousands would swamp every report and notice.
  const { shown: listed, more } = shownTargets(targets);
  const few = more > 0 ? [...listed, `@@${more}-more@@`] : targets;
  const shownArgv = few === targets ? argv : [...expand(run, few, shell, options.cacheDir), ...leaving];
  const shown = (shell ? (shownArgv[0] ?? '') : withRunner(shownArgv, gate)).replace(MORE, '… and $1 more');
  const where = relative(options.projectDir, gate.cwd);
  const display = where && where !== '.' ? `cd ${quoteCommand([where])} && ${shown}` : shown;
  const why = tooLong && plan === undefined && usesFiles ? '{files} is "." (the whole directory)' : plan?.why;
  const built = { argv: shell ? argv : spawnableArgv(argv), shell, display, nothingToRun: usesFiles && targets.length === 0, why, fast, narrowed: fast || usesFiles };
  return plan?.kind === 'fast' && plan.env ? { ...built, env: plan.env } : built;
}

/** `env` with a run's additions joined to what it has: PYTHONPATH by the path delimiter, PYTEST_ADDOPTS by a space. */
export function withRunEnv(env: NodeJS.ProcessEnv, add: RunEnv | undefined): NodeJS.ProcessEnv {
  if (!add) return env;
  const joined: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of Object.entries(add)) {
    const had = env[name];
    joined[name] = !had || name === 'STOPGATE_LEAVE_OUT' ? value : name === 'PYTHONPATH' ? `${value}${delimiter}${had}` : `${had} ${value}`;
  }
  return joined;
}

function expand(run: string | string[], targets: string[], shell: boolean, cacheDir: string): string[] {
  if (shell) {
    const text = typeof run === 'string' ? run : run.join(' ');
    return [text.split(FILES).join(shellWords(targets)).split(CACHE).join(quoteCommand([cacheDir]))];
  }
  const words = typeof run === 'string' ? splitCommand(run) : run;
  return words.flatMap((word) => (word === FILES ? targets : [word.split(FILES).join(targets.join(' ')).split(CACHE).join(cacheDir)]));
}

const MORE = /@@(\d+)-more@@/;

// The tiers whose targets are file paths (the others name packages, crates or projects).
const PATH_TIERS = new Set(['changed-files', 'js-imports', 'python-imports']);

function asPathArgument(path: string): string {
  return path.startsWith('-') ? `./${path}` : path;
}

function shellWords(words: string[]): string {
  return words.map((word) => (hasRawBytes(word) ? rawShellWord(word) : quoteCommand([word]))).join(' ');
}

// Well under every system's limit for one word and for the whole command line (Linux: 128 KiB a
// word; macOS: 1 MiB with the environment; Windows: 32,767 characters).
const ARGV_LIMIT = process.platform === 'win32' ? 30_000 : 100 * 1024;

function argvBytes(argv: string[]): number {
  return argv.reduce((total, word) => total + Buffer.byteLength(word) + 1, 0);
}

async function planFor(gate: ResolvedGate, files: string[], full: boolean, cacheDir: string): Promise<FastPlan | undefined> {
  const { tier } = gate;
  if (tier === undefined) return undefined;
  const mode = full || gate.fastOff ? 'full' : 'fast';
  const plan = await planFastTier({ gate: { ...gate, tier }, files, mode, cacheDir });
  return gate.fastOff && plan.kind === 'full' ? { ...plan, why: `"related": false: ${plan.why}` } : plan;
}

// The program may come from node_modules/.bin or the project's .venv, which gate puts on PATH; the
// agent's shell doesn't (and its PATH may hold another pytest, a pyenv shim's). A bin through the
// project's own runner: `pnpm exec`, not npx, in a pnpm project.
function withRunner(argv: string[], gate: ResolvedGate): string {
  const [program = '', ...rest] = argv;
  const venv = program.includes('/') || gate.env['PATH'] !== undefined ? undefined : findLocalEnv(gate.cwd, process.env);
  const fromVenv = venv !== undefined && venv.source !== '$VIRTUAL_ENV' && existsSync(join(venv.bin, program));
  if (fromVenv && (isPythonGate(gate, program) || !isLocalBin(program, gate.cwd))) return quoteCommand([relative(gate.cwd, join(venv.bin, program)), ...rest]);
  return isLocalBin(program, gate.cwd) ? `${projectRunner(gate.cwd)} ${quoteCommand(argv)}` : quoteCommand(argv);
}

function isLocalBin(program: string, cwd: string): boolean {
  if (program.includes('/')) return false;
  let dir = cwd;
  for (;;) {
    if (existsSync(join(dir, 'node_modules', '.bin', program))) return true;
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}
