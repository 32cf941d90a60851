import type { WorkspaceKind } from './graph-types.js';

/**
 * Files (globs relative to the workspace root) whose change affects every package: the root
 * manifest, the lockfile and what configures the package manager or the toolchain for all.
 */
export const AFFECTS_ALL: Record<WorkspaceKind, string[]> = {
  npm: ['package.json', 'package-lock.json', 'npm-shrinkwrap.json', '.npmrc', 'tsconfig*.json'],
  pnpm: ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', '.pnpmfile.cjs', 'tsconfig*.json'],
  yarn: ['package.json', 'yarn.lock', '.yarnrc.yml', '.pnp.cjs', 'tsconfig*.json'],
  go: ['go.work', 'go.work.sum'],
  cargo: ['Cargo.toml', 'Cargo.lock', 'rust-toolchain', 'rust-toolchain.toml', '.cargo/config', '.cargo/config.toml'],
  uv: ['pyproject.toml', 'uv.lock', 'uv.toml', '.python-version'],
};
