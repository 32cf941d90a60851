import { describe, expect, it } from 'vitest';
import type { ConfigFiles } from '../../src/config/find-config.js';
import { loadConfig, type ResolvedGate } from '../../src/config/load-config.js';
import { manifestChangeLeaves, manifestKeysChanged } from '../../src/plan/manifest-change.js';
import { selectGates } from '../../src/plan/select-gates.js';

const DIR = '/repo';
const manifest = (value: object) => `${JSON.stringify(value, null, 2)}\n`;
const BASE = { name: 'shop', version: '1.0.0', description: 'a shop', type: 'module', scripts: { test: 'vitest run', lint: 'biome check .' }, devDependencies: { vitest: '4.1.12' } };

function presetGate(preset: string, gate: object = {}): ResolvedGate {
  const files: ConfigFiles = { dir: DIR, hash: 'h', team: { path: `${DIR}/gate.config.json`, text: JSON.stringify({ gates: [{ name: 'check', preset, ...gate }] }) }, local: undefined };
  const [resolved] = loadConfig(files, DIR).gates;
  if (!resolved) throw new Error('no gate');
  return resolved;
}

const select = (gate: ResolvedGate, paths: string[], manifestKeys: Record<string, string[]>) =>
  selectGates([gate], { paths, all: false, manifestKeys }, DIR, new Map([[DIR, { paths }]]), new Set(), undefined)[0];

describe('manifestKeysChanged: a package.json edit by meaning', () => {
  it('names each changed script and top-level key; key order and formatting change nothing', () => {
    expect(manifestKeysChanged(manifest(BASE), manifest({ ...BASE, scripts: { ...BASE.scripts, lint: 'biome ci .', fmt: 'biome format' } }))).toEqual(['scripts.fmt', 'scripts.lint']);
    expect(manifestKeysChanged(manifest(BASE), JSON.stringify(Object.fromEntries(Object.entries(BASE).reverse())))).toEqual([]);
    expect(manifestKeysChanged(manifest(BASE), manifest({ ...BASE, description: 'the shop', devDependencies: { vitest: '4.2.0' } }))).toEqual(['description', 'devDependencies']);
    expect(manifestKeysChanged(manifest(BASE), manifest({ ...BASE, scripts: 'x' }))).toEqual(['scripts']);
  });

  it('is undefined when either side does not parse as an object', () => {
    expect(manifestKeysChanged(manifest(BASE), '{ "name": ')).toBeUndefined();
    expect(manifestKeysChanged('[]', manifest(BASE))).toBeUndefined();
  });
});

describe('manifestChangeLeaves: what a gate reads of package.json', () => {
  it('leaves a script it does not run and the package description; never a dependency, an entry point, the test script or a runner key', () => {
    const gate = { run: ['vitest', 'run'], shell: false };
    expect(manifestChangeLeaves(gate, ['scripts.lint', 'description', 'keywords'])).toBe(true);
    for (const key of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'overrides', 'resolutions', 'pnpm', 'workspaces', 'main', 'module', 'exports', 'imports', 'type', 'bin', 'jest', 'mocha', 'ava', 'name', 'version', 'scripts', 'scripts.test', 'scripts.pretest', 'scripts.posttest', 'browserslist']) {
      expect(manifestChangeLeaves(gate, ['description', key]), key).toBe(false);
    }
  });

  it('counts every script as read by a gate that runs one (npm test, pnpm run, turbo, node --run)', () => {
    for (const run of [['npm', 'test'], ['pnpm', 'run', 'check'], 'yarn lint && vitest run', ['turbo', 'run', 'test'], ['node', '--run', 'unit']]) {
      expect(manifestChangeLeaves({ run, shell: typeof run === 'string' }, ['scripts.lint']), JSON.stringify(run)).toBe(false);
    }
  });
});

describe('selectGates with a package.json the gate does not read', () => {
  it('does not run a test or type-check gate for it, and says why', () => {
    for (const preset of ['vitest', 'jest', 'node-test', 'mocha', 'tsc']) {
      expect(select(presetGate(preset), ['package.json'], { 'package.json': ['scripts.lint'] }), preset).toMatchObject({
        run: false,
        reason: 'package.json changed only in scripts.lint: no dependency, entry point, runner config or test script, nothing this gate reads',
      });
    }
  });

  it('keeps the fast tier for the other changed files: the manifest is no reason for the full run', () => {
    expect(select(presetGate('vitest'), ['package.json', 'src/a.ts'], { 'package.json': ['description'] })).toMatchObject({ run: true, partial: false, files: ['src/a.ts'], reason: 'src/a.ts changed' });
  });

  it('runs in full as before when a key it may read changed, the start is unknown, or the gate is a linter or its own command', () => {
    expect(select(presetGate('vitest'), ['package.json'], { 'package.json': ['scripts.lint', 'devDependencies'] })).toMatchObject({ run: true, partial: true });
    expect(select(presetGate('vitest'), ['package.json'], {})).toMatchObject({ run: true, partial: true });
    expect(select(presetGate('eslint'), ['package.json'], { 'package.json': ['scripts.lint'] })).toMatchObject({ run: true, partial: true });
    expect(select(presetGate('vitest', { run: 'npx vitest run' }), ['package.json'], { 'package.json': ['scripts.lint'] })?.run).toBe(true);
    expect(select(presetGate('turbo-test'), ['package.json'], { 'package.json': ['scripts.lint'] })).toMatchObject({ run: true, partial: true });
  });
});
