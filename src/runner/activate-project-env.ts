import { readFileSync } from 'node:fs';
import { basename, delimiter, join, relative, sep } from 'node:path';
import type { ResolvedGate } from '../config/load-config.js';
import { packageRoot } from '../package/package-root.js';
import { askEnvManager } from './ask-env-manager.js';
import { findLocalEnv, type ProjectEnv } from './project-env.js';
import { localBins } from './spawn-group.js';

export interface ActivatedEnv {
  /** What the gate's command gets: the project's environment activated (its bin on PATH, VIRTUAL_ENV). */
  env: NodeJS.ProcessEnv;
  projectEnv: ProjectEnv | undefined;
  /** The gate's own config sets PATH: it is used as it is, no environment put in front. */
  pathFromConfig: boolean;
}

// The programs of a gate without a Python preset that still look in the project's environment first.
const PYTHON_PROGRAMS = /^(python[\d.]*|pytest|py\.test|mypy|dmypy|ruff|pyright|basedpyright|tox|nox|flake8|pylint|black|isort)$/;

/**
 * The project's Python environment activated for a gate, as `source .venv/bin/activate` would: found
 * ($VIRTUAL_ENV, .venv, venv, then the project's manager), its bin put on PATH and VIRTUAL_ENV set, so
 * that the gate's program and whatever it starts (`python -m pytest`, a subprocess) are the project's.
 * A Python gate looks there before node_modules/.bin; any other gate after (a JS project whose .venv
 * serves its docs keeps its own eslint). `env` is the hook's environment with the gate's own `env`.
 */
export async function activateProjectEnv(gate: Pick<ResolvedGate, 'cwd' | 'env' | 'preset'>, program: string, env: NodeJS.ProcessEnv, cacheFile: string | undefined): Promise<ActivatedEnv> {
  if (gate.env['PATH'] !== undefined) return { env, projectEnv: undefined, pathFromConfig: true };
  const projectEnv = findLocalEnv(gate.cwd, env) ?? (await askEnvManager(gate.cwd, env, cacheFile));
  if (projectEnv === undefined) return { env, projectEnv, pathFromConfig: false };
  const path = env['PATH'] ?? '';
  const rest = path === '' ? [] : path.split(delimiter).filter((dir) => dir !== projectEnv.bin);
  const nodeBins = localBins(gate.cwd).filter((dir) => !rest.includes(dir));
  const front = isPythonGate(gate, program) ? [projectEnv.bin, ...nodeBins] : [...nodeBins, projectEnv.bin];
  return { env: { ...env, PATH: [...front, ...rest].join(delimiter), VIRTUAL_ENV: projectEnv.dir }, projectEnv, pathFromConfig: false };
}

export function isPythonGate(gate: Pick<ResolvedGate, 'preset'>, program: string): boolean {
  return (gate.preset !== undefined && presetEcosystem(gate.preset) === 'python') || PYTHON_PROGRAMS.test(basename(program));
}

const ecosystems = new Map<string, string | undefined>();

/**
 * The preset file's `ecosystem`, read as plain JSON: a checked stop loads no zod for it (loadPresets
 * validates every preset, and would bundle zod into the stop's half). A preset file is `<id>.json`.
 */
function presetEcosystem(id: string): string | undefined {
  if (!ecosystems.has(id)) {
    let ecosystem: string | undefined;
    try {
      const value: unknown = JSON.parse(readFileSync(join(packageRoot(), 'presets', `${id}.json`), 'utf8'));
      ecosystem = typeof value === 'object' && value !== null && 'ecosystem' in value && typeof value.ecosystem === 'string' ? value.ecosystem : undefined;
    } catch {
      ecosystem = undefined;
    }
    ecosystems.set(id, ecosystem);
  }
  return ecosystems.get(id);
}

/** Why a gate runs the program found where it was: what `gate status` and `gate doctor` say. */
export function describeOrigin(found: string, activated: Pick<ActivatedEnv, 'projectEnv' | 'pathFromConfig'>, projectDir: string): string {
  const { projectEnv } = activated;
  if (projectEnv && !relative(projectEnv.bin, found).startsWith('..')) {
    if (projectEnv.source === '$VIRTUAL_ENV') return `from $VIRTUAL_ENV (${projectEnv.dir})`;
    const near = relative(projectDir, projectEnv.dir);
    const where = near === '' || near.startsWith('..') ? projectEnv.dir : near;
    return projectEnv.source === '.venv' || projectEnv.source === 'venv' ? `from ${where} (the project's environment)` : `from ${where} (the project's environment, as ${projectEnv.source} says)`;
  }
  if (found.includes(`${sep}node_modules${sep}.bin${sep}`)) return 'from node_modules/.bin';
  return activated.pathFromConfig ? 'from the PATH its config sets' : 'from PATH';
}
