import type { ResolvedGate } from '../config/load-config.js';
import { activateProjectEnv, describeOrigin, isPythonGate } from './activate-project-env.js';
import { findProgram } from './find-program.js';
import type { ProjectEnv } from './project-env.js';
import { withLocalBins } from './spawn-group.js';

export interface ProgramUsed {
  /** As the command names it. */
  name: string;
  /** Where it was found; undefined when it is not. */
  path: string | undefined;
  /** Why that one: "from .venv (the project's environment)", "from node_modules/.bin", "from PATH". */
  from: string;
  /** The project's Python environment, when it has one (and the gate's config does not set PATH). */
  projectEnv: ProjectEnv | undefined;
  pathFromConfig: boolean;
  python: boolean;
}

/**
 * The program a gate's command starts, looked up as the run looks it up: `env` (the hook's and the
 * gate's own) with the project's environment activated, then node_modules/.bin. A shell command's
 * first word counts only when it is a program (not a builtin, an assignment or a `cd`).
 */
export async function locateProgram(gate: Pick<ResolvedGate, 'cwd' | 'env' | 'preset'>, command: { argv: string[]; shell: boolean }, env: NodeJS.ProcessEnv, projectDir: string, cacheFile: string | undefined): Promise<ProgramUsed | undefined> {
  const name = command.shell ? /^\s*([\w./+-]+)(?=\s|$)/.exec(command.argv[0] ?? '')?.[1] : afterEnv(command.argv);
  if (name === undefined || name === '') return undefined;
  const activated = await activateProjectEnv(gate, name, env, cacheFile);
  const lookup = findProgram(name, gate.cwd, withLocalBins(activated.env['PATH'] ?? '', gate.cwd));
  const base = { name, projectEnv: activated.projectEnv, pathFromConfig: activated.pathFromConfig, python: isPythonGate(gate, name) };
  if ('found' in lookup) return { ...base, path: lookup.found, from: describeOrigin(lookup.found, activated, projectDir) };
  if (command.shell) return undefined;
  return { ...base, path: undefined, from: lookup.missing === 'EACCES' ? 'found, but not executable' : 'not found' };
}

/** `env VAR=value pytest …` (pytest's testmon tier) starts pytest, looked up on the PATH it is given. */
function afterEnv(argv: string[]): string | undefined {
  if (argv[0] !== 'env') return argv[0];
  return argv.slice(1).find((word) => !word.includes('=') && !word.startsWith('-')) ?? argv[0];
}
