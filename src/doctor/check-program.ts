import { relative, sep } from 'node:path';
import type { ResolvedGate } from '../config/load-config.js';
import { splitCommand } from '../plan/split-command.js';
import { locateProgram, type ProgramUsed } from '../runner/locate-program.js';
import { checkRunnerSetup } from './check-runner-setup.js';
import type { Finding } from './judge-delivery.js';

/**
 * The gate's program is found as a run would find it: with the gate's own `env` (its PATH, when it
 * sets one), the project's Python environment activated, node_modules/.bin. A Python tool that comes
 * from outside the project's environment is named: it may test the installed package instead of
 * the work tree.
 */
export async function checkProgram(name: string, gate: Pick<ResolvedGate, 'run' | 'shell' | 'cwd' | 'env' | 'preset'>, env: NodeJS.ProcessEnv, projectDir: string, cacheFile: string | undefined): Promise<Finding[]> {
  if (gate.shell) return [{ level: 'info', message: `gate "${name}" runs through a shell; its programs are not checked` }];
  const argv = typeof gate.run === 'string' ? splitCommand(gate.run) : gate.run;
  const used = await locateProgram(gate, { argv, shell: false }, { ...env, ...gate.env }, projectDir, cacheFile);
  if (used?.path === undefined) {
    const where = used?.pathFromConfig ? 'in node_modules/.bin or on the PATH its config sets' : `in ${used?.projectEnv ? `${used.projectEnv.bin}, ` : ''}node_modules/.bin or on PATH`;
    return [{ level: 'problem', message: `gate "${name}": program "${used?.name ?? ''}" ${used?.from ?? 'not found'} ${where}; install it, or the gate can never give a verdict` }];
  }
  const found: Finding = { level: 'ok', message: `gate "${name}": ${used.name} found (${used.path}), ${used.from}` };
  const outside = outsideProjectEnv(used, projectDir);
  const runner = checkRunnerSetup(name, used.path, argv, gate.cwd, { ...env, ...gate.env });
  return [found, ...(outside ? [{ level: 'warning' as const, message: `gate "${name}": ${outside}` }] : []), ...runner];
}

/** Why a Python gate's program found on PATH may not test the work tree, with the fix; undefined when it is the project's. */
export function outsideProjectEnv(used: ProgramUsed, projectDir: string): string | undefined {
  const { path, projectEnv } = used;
  if (!used.python || used.pathFromConfig || path === undefined || path.includes(`${sep}node_modules${sep}`)) return undefined;
  if (projectEnv) {
    if (!relative(projectEnv.bin, path).startsWith('..')) return undefined;
    const bin = relative(projectDir, projectEnv.bin);
    const pip = ADD_DEV[projectEnv.source]?.(used.name) ?? `${bin.startsWith('..') ? projectEnv.bin : bin}${sep}pip install ${used.name}`;
    return `${used.name} is not in the project's environment (${projectEnv.dir}): the one on PATH (${path}) runs, with its own Python and packages. Fix: ${pip}`;
  }
  const kind = installKind(path);
  if (kind === undefined) return undefined;
  return `${used.name} comes from ${kind} (${path}) and the project has no environment of its own (.venv): it may import the installed package instead of the work tree, or miss the project's dependencies. Fix: python3 -m venv .venv && .venv/bin/pip install -e . ${used.name} (or uv sync)`;
}

const ADD_DEV: Record<string, (name: string) => string> = {
  uv: (name) => `uv add --dev ${name}`,
  poetry: (name) => `poetry add --group dev ${name}`,
  pdm: (name) => `pdm add -d ${name}`,
};

function installKind(path: string): string | undefined {
  if (path.includes(`${sep}.pyenv${sep}shims${sep}`) || path.includes(`${sep}.pyenv${sep}plugins${sep}`)) return 'a pyenv shim';
  if (path.includes(`${sep}.asdf${sep}shims${sep}`)) return 'an asdf shim';
  if (/^\/(usr\/(local\/)?)?s?bin\//.test(path)) return 'a system install';
  return undefined;
}
