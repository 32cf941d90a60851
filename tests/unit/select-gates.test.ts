import { describe, expect, it } from 'vitest';
import type { ResolvedGate } from '../../src/config/load-config.js';
import { selectGates } from '../../src/plan/select-gates.js';

function gate(name: string, on: string[], ignore: string[] = [], cwd = '/repo'): ResolvedGate {
  return { name, preset: undefined, run: ['true'], shell: false, on, ignore, timeoutSeconds: 10, filter: 'generic', tier: undefined, fastOff: false, cwd, env: {}, retries: 0 };
}

const gates = [gate('test', ['**/*.ts'], ['docs/**']), gate('docs', ['**/*.md'])];

describe('selectGates', () => {
  it('runs a gate only when a changed path matches on and not ignore', () => {
    const selected = selectGates(gates, { paths: ['README.md', 'docs/x.ts'], all: false }, '/repo', '/repo', new Set(), undefined);
    expect(selected.map((s) => [s.gate.name, s.run])).toEqual([['test', false], ['docs', true]]);
    expect(selected[1]?.reason).toBe('README.md changed');
  });

  it('expands files relative to the gate cwd and ignores paths outside the config dir', () => {
    const app = [gate('test', ['src/**'], [], '/repo/packages/app/src')];
    const [selection] = selectGates(app, { paths: ['packages/app/src/a.ts', 'other/src/b.ts'], all: false }, '/repo', '/repo/packages/app', new Set(), undefined);
    expect(selection).toMatchObject({ run: true, files: ['a.ts'] });
  });

  it('honours GATE_SKIP and explicit names, and runs everything when the change is unknown', () => {
    const all = selectGates(gates, { paths: [], all: true }, '/repo', '/repo', new Set(['docs']), undefined);
    expect(all.map((s) => s.run)).toEqual([true, false]);
    expect(all[1]?.reason).toMatch(/GATE_SKIP/);
    const only = selectGates(gates, { paths: [], all: true }, '/repo', '/repo', new Set(), new Set(['docs']));
    expect(only.map((s) => s.run)).toEqual([false, true]);
  });

  it('matches dotfiles', () => {
    const [selection] = selectGates([gate('lint', ['**/.eslintrc*'])], { paths: ['.eslintrc.json'], all: false }, '/repo', '/repo', new Set(), undefined);
    expect(selection?.run).toBe(true);
  });
});
