import { relative, sep } from 'node:path';
import type { Preset } from '../config/schema.js';
import { managerCommands, type PackageManager } from '../package/package-manager.js';
import type { ProjectEnv } from '../runner/project-env.js';
import type { RepoFacts } from './repo-facts.js';

/** The npm package that provides a node preset's program, where the names differ. */
export const NODE_PACKAGES: Record<string, string> = { tsc: 'typescript', biome: '@biomejs/biome' };

const TOOLCHAINS: Record<string, string> = {
  go: 'install Go (https://go.dev/doc/install)',
  gofmt: 'install Go (https://go.dev/doc/install), which ships gofmt',
  'golangci-lint': 'install golangci-lint (https://golangci-lint.run/welcome/install/)',
  cargo: 'install Rust with rustup (https://rustup.rs)',
};

export interface HintContext {
  facts: RepoFacts;
  dir: string;
  manager: PackageManager | undefined;
  /** The project's Python environment, when it has one. */
  projectEnv: ProjectEnv | undefined;
}

/** Exactly what to install so that `program` (a preset's) runs here: the project's own way where it has one. */
export function installHint(preset: Preset, program: string, context: HintContext): string {
  if (preset.ecosystem === 'node') {
    const name = NODE_PACKAGES[program] ?? program;
    return `\`${managerCommands(context.manager ?? 'npm').addStopgate.replace(/stopgate$/, name)}\``;
  }
  if (preset.ecosystem === 'python') return pythonHint(program, context);
  return TOOLCHAINS[program] ?? `install ${program}`;
}

function pythonHint(tool: string, { facts, dir, projectEnv }: HintContext): string {
  const group = facts.dependencyGroups?.find((entry) => entry.tools.includes(tool))?.name;
  const uv = facts.files.includes('uv.lock') || facts.sections['pyproject.toml']?.some((header) => header === 'tool.uv' || header.startsWith('tool.uv.'));
  if (uv) return group === undefined ? `\`uv add --dev ${tool}\`` : `\`uv sync --group ${group}\` (pyproject.toml's dependency group "${group}" has ${tool})`;
  if (facts.files.includes('poetry.lock')) return `\`poetry add --group dev ${tool}\``;
  if (facts.files.includes('pdm.lock')) return `\`pdm add -d ${tool}\``;
  const from = group === undefined ? '' : ` (pyproject.toml's dependency group "${group}" has it)`;
  if (projectEnv === undefined) return `\`pip install ${tool}\` in the project's virtual environment (python3 -m venv .venv)${from}`;
  const bin = relative(dir, projectEnv.bin);
  return `\`${bin.startsWith('..') ? projectEnv.bin : bin}${sep}pip install ${tool}\`${from}`;
}
