import { existsSync } from 'node:fs';
import picomatch from 'picomatch';
import { dirname, join, relative } from 'node:path';
import { quoteCommand, splitCommand } from '../plan/split-command.js';
import type { ResolvedGate } from '../config/load-config.js';

export interface BuiltCommand {
  /** argv to spawn, or with `shell` a single command string in argv[0]. */
  argv: string[];
  shell: boolean;
  /** What a person (or the agent) would type from the project directory to rerun it. */
  display: string;
  /** `{files}` was used and no changed file exists any more: nothing to run. */
  nothingToRun: boolean;
  /** Only the tests related to the changed files run (the runner's own selection). */
  related: boolean;
}

const FILES = '{files}';

/**
 * The command to run for a gate: its own, or the runner's related-test selection when the preset
 * has one, the change is fully known, and only source and test files changed (a config, setup or
 * lock file, or a deleted file, means the full run).
 */
export function buildCommand(gate: ResolvedGate, files: string[], projectDir: string, partial = false): BuiltCommand {
  const existing = files.filter((file) => existsSync(join(gate.cwd, file)));
  const needsFullRun = gate.related ? picomatch(gate.related.fullRunOn, { dot: true }) : () => true;
  const related = gate.related !== undefined && !partial && files.length > 0 && existing.length === files.length && !files.some((file) => needsFullRun(file));
  const run = related && gate.related ? gate.related.run : gate.run;
  const usesFiles = typeof run === 'string' ? run.includes(FILES) : run.some((word) => word.includes(FILES));
  let argv: string[];
  if (gate.shell && !related) {
    const text = typeof run === 'string' ? run : run.join(' ');
    argv = [text.split(FILES).join(quoteCommand(existing))];
  } else {
    const words = typeof run === 'string' ? splitCommand(run) : run;
    argv = words.flatMap((word) => (word === FILES ? existing : [word.split(FILES).join(existing.join(' '))]));
  }
  const shell = gate.shell && !related;
  const shown = shell ? (argv[0] ?? '') : withRunner(argv, gate.cwd);
  const where = relative(projectDir, gate.cwd);
  const display = where && where !== '.' ? `cd ${quoteCommand([where])} && ${shown}` : shown;
  return { argv, shell, display, nothingToRun: usesFiles && existing.length === 0, related };
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
