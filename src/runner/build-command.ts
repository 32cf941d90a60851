import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { quoteCommand, splitCommand } from '../plan/split-command.js';
import type { ResolvedGate } from '../config/load-config.js';
import { planFastTier, type FastPlan } from '../fast/fast-plan.js';

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
}

export interface BuildOptions {
  projectDir: string;
  /** The gate's cache folder under gate's state: what `{cache}` expands to. */
  cacheDir: string;
  /** The full command: `gate check --all`, a baseline run, or a change that could not be narrowed down. */
  full?: boolean;
}

const FILES = '{files}';
const CACHE = '{cache}';

/**
 * The command to run for a gate: its own, or with a preset's fast tier what the tier's planner chose
 * (related tests, the changed files, an incremental cache, the packages the change reaches).
 */
export async function buildCommand(gate: ResolvedGate, files: string[], options: BuildOptions): Promise<BuiltCommand> {
  const plan = await planFor(gate, files, options.full === true);
  if (plan?.kind === 'none') return { argv: [], shell: false, display: '', nothingToRun: true, why: plan.why, fast: true, narrowed: true };
  const fast = plan?.kind === 'fast';
  const run = plan?.run ?? gate.run;
  const targets = plan?.kind === 'fast' ? plan.targets : files.filter((file) => existsSync(join(gate.cwd, file)));
  const usesFiles = typeof run === 'string' ? run.includes(FILES) : run.some((word) => word.includes(FILES));
  const shell = gate.shell && plan === undefined;
  let argv: string[];
  if (shell) {
    const text = typeof run === 'string' ? run : run.join(' ');
    argv = [text.split(FILES).join(quoteCommand(targets)).split(CACHE).join(quoteCommand([options.cacheDir]))];
  } else {
    const words = typeof run === 'string' ? splitCommand(run) : run;
    argv = words.flatMap((word) => (word === FILES ? targets : [word.split(FILES).join(targets.join(' ')).split(CACHE).join(options.cacheDir)]));
  }
  const shown = shell ? (argv[0] ?? '') : withRunner(argv, gate.cwd);
  const where = relative(options.projectDir, gate.cwd);
  const display = where && where !== '.' ? `cd ${quoteCommand([where])} && ${shown}` : shown;
  return { argv, shell, display, nothingToRun: usesFiles && targets.length === 0, why: plan?.why, fast, narrowed: fast || usesFiles };
}

async function planFor(gate: ResolvedGate, files: string[], full: boolean): Promise<FastPlan | undefined> {
  const { tier } = gate;
  if (tier === undefined) return undefined;
  const mode = full || gate.fastOff ? 'full' : 'fast';
  const plan = await planFastTier({ gate: { ...gate, tier }, files, mode });
  return gate.fastOff && plan.kind === 'full' ? { ...plan, why: `"related": false: ${plan.why}` } : plan;
}

// The program may come from node_modules/.bin, which gate puts on PATH; the agent's shell doesn't.
function withRunner(argv: string[], cwd: string): string {
  const program = argv[0] ?? '';
  return isLocalBin(program, cwd) ? `npx ${quoteCommand(argv)}` : quoteCommand(argv);
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
