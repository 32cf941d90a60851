import type { FastTier, Preset } from './schema.js';

/**
 * Each ecosystem's lockfiles and manifests: a change to one is a change to what the code runs on
 * (an upgraded dependency, a new pin), so every gate of a preset of that ecosystem runs, in full.
 */
export const DEPENDENCY_FILES: Record<Preset['ecosystem'], readonly string[]> = {
  python: ['uv.lock', 'poetry.lock', 'pdm.lock', 'Pipfile.lock', 'Pipfile', 'requirements*.txt', 'requirements/*.txt', 'pyproject.toml', 'setup.py', 'setup.cfg'],
  node: ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'bun.lockb', 'package.json'],
  go: ['go.mod', 'go.sum', 'go.work', 'go.work.sum'],
  rust: ['Cargo.toml', 'Cargo.lock'],
};

// These tiers run whole packages: a package's own manifest already runs it (and its dependents) in
// full, so only the files at the gate's root mean every package.
const PACKAGE_TIERS: ReadonlySet<FastTier['by']> = new Set(['turbo-packages', 'nx-projects', 'cargo-members']);

/** The globs (relative to the gate's config) that trigger a preset's gate, anywhere in its folder. */
export function dependencyTriggers(preset: Preset): string[] {
  return DEPENDENCY_FILES[preset.ecosystem].map((name) => `**/${name}`);
}

/** The globs whose change means the gate's full run, whatever its fast tier would narrow to. */
export function dependencyFullRuns(preset: Preset): string[] {
  const rootOnly = preset.related !== undefined && PACKAGE_TIERS.has(preset.related.by);
  return rootOnly ? [...DEPENDENCY_FILES[preset.ecosystem]] : dependencyTriggers(preset);
}
