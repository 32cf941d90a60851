import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import { detectPresets } from '../../src/init/detect-presets.js';
import { planWorkspaceLayout } from '../../src/init/plan-workspace.js';
import { readRepoFacts } from '../../src/init/repo-facts.js';
import { findRootCoverage, runsWholeTool } from '../../src/init/root-coverage.js';

const presets = loadPresets();
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const json = (value: unknown) => `${JSON.stringify(value)}\n`;
const TEST = "import { test } from 'vitest';\ntest('x', () => {});\n";

function tree(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'gate-root-coverage-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const ROOT = {
  'package.json': json({ name: 'root', scripts: { test: 'vitest', check: 'tsc' }, devDependencies: { vitest: '4', typescript: '5' } }),
  'vitest.config.ts': "export default { test: { exclude: ['packages/solo/**', '**/node_modules/**'] } };\n",
  'tsconfig.json': json({ compilerOptions: { strict: true }, include: ['packages'] }),
};
const member = (name: string, extra: Record<string, string> = {}) => ({
  [`packages/${name}/package.json`]: json({ name, scripts: { test: 'vitest' }, devDependencies: { vitest: '4', typescript: '5' } }),
  [`packages/${name}/tsconfig.json`]: json({ extends: '../../tsconfig.json', include: ['src'] }),
  [`packages/${name}/src/a.ts`]: 'export const a = 1;\n',
  [`packages/${name}/src/a.test.ts`]: TEST,
  ...extra,
});

function coverageOf(root: string, names: string[]) {
  const members = names.map((name) => {
    const facts = readRepoFacts(join(root, 'packages', name));
    return { dir: `packages/${name}`, facts, detection: detectPresets(facts, presets, { member: true }) };
  });
  const rootDetection = detectPresets(readRepoFacts(root), presets, { workspaceRoot: true });
  return { members, rootDetection, coverage: findRootCoverage(root, rootDetection, members) };
}

describe('findRootCoverage', () => {
  it('counts a package the root vitest and tsc collect, with configs that only build on the root\'s', () => {
    const root = tree({ ...ROOT, ...member('core', { 'packages/core/vitest.config.ts': "import base from '../../vitest.config';\nexport default base;\n" }) });
    expect(coverageOf(root, ['core']).coverage.get('packages/core')).toEqual(new Set(['vitest', 'tsc']));
  });

  it('not a package the root excludes, one with a vitest config of its own, or one that sets compiler options', () => {
    const root = tree({
      ...ROOT,
      ...member('solo'),
      ...member('own', { 'packages/own/vitest.config.ts': "export default { test: { environment: 'node' } };\n" }),
      ...member('narrowed', { 'packages/narrowed/vitest.config.ts': "import base from '../../vitest.config';\nexport default { ...base, test: { include: ['src/**/*.spec.ts'] } };\n" }),
      ...member('strictless', { 'packages/strictless/tsconfig.json': json({ extends: '../../tsconfig.json', compilerOptions: { strict: false } }) }),
    });
    const { coverage } = coverageOf(root, ['solo', 'own', 'narrowed', 'strictless']);
    expect(coverage.get('packages/solo')).toEqual(new Set(['tsc']));
    expect(coverage.get('packages/own')).toEqual(new Set(['tsc']));
    expect(coverage.get('packages/narrowed')).toEqual(new Set(['tsc']));
    expect(coverage.get('packages/strictless')).toEqual(new Set(['vitest']));
  });

  it('nothing when the root scripts run the packages\' own scripts', () => {
    const root = tree({ ...ROOT, 'package.json': json({ name: 'root', scripts: { test: 'pnpm -r test', check: 'pnpm -r exec tsc' }, devDependencies: { vitest: '4', typescript: '5' } }), ...member('core') });
    expect(coverageOf(root, ['core']).coverage.size).toBe(0);
  });

  it('a package covered for one tool only keeps every gate of its own, and the root keeps the tools it relies on', () => {
    const root = tree({ ...ROOT, ...member('core'), ...member('solo') });
    const { members, rootDetection, coverage } = coverageOf(root, ['core', 'solo']);
    const plan = planWorkspaceLayout({ kind: 'pnpm', root: rootDetection, members, packageManager: 'pnpm', presets, coverage });
    expect(plan.members.find((planned) => planned.dir === 'packages/core')?.gates).toEqual([]);
    expect(plan.members.find((planned) => planned.dir === 'packages/solo')?.gates.map(({ gate }) => gate.name)).toEqual(['test', 'typecheck']);
    expect(plan.rootGates.map(({ gate }) => gate.name)).toEqual(['test', 'typecheck']);
  });
});

describe('runsWholeTool', () => {
  it.each([
    ['vitest', 'vitest', true],
    ['test -z $CI && vitest || vitest', 'vitest', true],
    ['vitest run --coverage', 'vitest', true],
    ['pnpm --filter core vitest', 'vitest', false],
    ['vitest --project core', 'vitest', false],
    ['tsc', 'tsc', true],
    ['tsc --noEmit', 'tsc', true],
    ['tsc -b', 'tsc', true],
    ['tsc -p packages/core', 'tsc', false],
    ['cd packages/core && tsc', 'tsc', false],
    ['eslint --ext=js,ts .', 'eslint', true],
    ['eslint src', 'eslint', false],
  ] as const)('%s runs %s over everything: %s', (script, tool, expected) => {
    expect(runsWholeTool(script, tool)).toBe(expected);
  });
});
