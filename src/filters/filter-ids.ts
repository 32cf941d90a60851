/** Every filter id a preset or a gate may name. */
export const FILTER_IDS: readonly string[] = [
  'generic',
  'vitest',
  'jest',
  'node-test',
  'mocha',
  'tsc',
  'eslint',
  'biome',
  'pytest',
  'mypy',
  'ruff',
  'go-test',
  'go-vet',
  'cargo-test',
  'cargo-clippy',
];
