import { existsSync } from 'node:fs';
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
}

const FILES = '{files}';

export function buildCommand(gate: ResolvedGate, files: string[], projectDir: string): BuiltCommand {
  const existing = files.filter((file) => existsSync(join(gate.cwd, file)));
  const usesFiles = typeof gate.run === 'string' ? gate.run.includes(FILES) : gate.run.some((word) => word.includes(FILES));
  let argv: string[];
  if (gate.shell) {
    const text = typeof gate.run === 'string' ? gate.run : gate.run.join(' ');
    argv = [text.split(FILES).join(quoteCommand(existing))];
  } else {
    const words = typeof gate.run === 'string' ? splitCommand(gate.run) : gate.run;
    argv = words.flatMap((word) => (word === FILES ? existing : [word.split(FILES).join(existing.join(' '))]));
  }
  const shown = gate.shell ? (argv[0] ?? '') : withRunner(argv, gate.cwd);
  const where = relative(projectDir, gate.cwd);
  const display = where && where !== '.' ? `cd ${quoteCommand([where])} && ${shown}` : shown;
  return { argv, shell: gate.shell, display, nothingToRun: usesFiles && existing.length === 0 };
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
