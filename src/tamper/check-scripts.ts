import { isAbsolute, relative, resolve, sep } from 'node:path';
import { splitCommand } from '../plan/split-command.js';

export interface GateCommand {
  name: string;
  run: string | string[];
  cwd: string;
}

const SHELL = /^(?:.*\/)?(?:sh|bash|zsh|dash|ksh)$/;

/**
 * The scripts the gates run (`sh check.sh`, `bash scripts/check`, `./scripts/check`), by path
 * relative to the repository root, each with the first gate that runs it. What such a script
 * holds is the check itself: turning it into `exit 0` weakens the gate (src/tamper/script-change.ts).
 */
export function checkScriptsOf(gates: readonly GateCommand[], root: string): Map<string, string> {
  const scripts = new Map<string, string>();
  for (const gate of gates) {
    const script = scriptOf(argvOf(gate.run));
    if (script === undefined) continue;
    const path = relative(root, resolve(gate.cwd, script));
    if (path === '' || path.startsWith('..') || isAbsolute(path)) continue;
    const key = path.split(sep).join('/');
    if (!scripts.has(key)) scripts.set(key, gate.name);
  }
  return scripts;
}

function argvOf(run: string | string[]): string[] {
  if (Array.isArray(run)) return run;
  try {
    return splitCommand(run);
  } catch {
    return [];
  }
}

/** A shell's script operand (not `-c`'s inline text), or a program named by a relative path. */
function scriptOf(argv: string[]): string | undefined {
  const [program, ...args] = argv;
  if (program === undefined) return undefined;
  if (!SHELL.test(program)) return program.includes('/') && !program.startsWith('/') && !program.includes('{') ? program : undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '-c') return undefined;
    // `-o pipefail`, `-euo pipefail`: the option takes the next word.
    if (/^[-+][a-zA-Z]*o$/.test(arg)) index++;
    else if (!arg.startsWith('-') && !arg.startsWith('+')) return arg;
  }
  return undefined;
}
