import { describe, expect, it } from 'vitest';
import type { ResolvedGate } from '../../src/config/load-config.js';
import { selectGates, type GateScope } from '../../src/plan/select-gates.js';

function gate(name: string, on: string[], ignore: string[] = [], cwd = '/repo', configDir = '/repo', shortName = name): ResolvedGate {
  return { name, shortName, configDir, preset: undefined, run: ['true'], shell: false, on, ignore, timeoutSeconds: 10, filter: 'generic', tier: undefined, fastOff: false, cwd, env: {}, retries: 0 };
}

const gates = [gate('test', ['**/*.ts'], ['docs/**']), gate('docs', ['**/*.md'])];
const scoped = (entries: Record<string, GateScope>) => new Map(Object.entries(entries));

describe('selectGates', () => {
  it('runs a gate only when a changed path its config owns matches on and not ignore', () => {
    const change = { paths: ['README.md', 'docs/x.ts'], all: false };
    const selected = selectGates(gates, change, '/repo', scoped({ '/repo': { paths: change.paths } }), new Set(), undefined);
    expect(selected.map((s) => [s.gate.name, s.run])).toEqual([['test', false], ['docs', true]]);
    expect(selected[1]?.reason).toBe('README.md changed');
  });

  it('a name holding a newline or another control character matches `on` and `ignore` as its other characters would', () => {
    const names = ['new\nfolder/a.ts', 'src/cr\rname.ts', 'tab\tdir/x\u0001y.ts', 'line\u2028sep/z.ts'];
    const all = [gate('everything', ['**']), gate('ts', ['**/*.ts', 'src/?r?name.ts']), gate('ignored', ['**/*.ts'], ['**'])];
    for (const path of names) {
      const selected = selectGates(all, { paths: [path], all: false }, '/repo', scoped({ '/repo': { paths: [path] } }), new Set(), undefined);
      expect(selected.map((s) => [s.gate.name, s.run]), JSON.stringify(path)).toEqual([['everything', true], ['ts', true], ['ignored', false]]);
    }
  });

  it('expands files relative to the gate cwd; globs are relative to the config directory', () => {
    const app = [gate('packages/app:test', ['src/**'], [], '/repo/packages/app/src', '/repo/packages/app', 'test')];
    const change = { paths: ['packages/app/src/a.ts'], all: false };
    const [selection] = selectGates(app, change, '/repo', scoped({ '/repo/packages/app': { paths: change.paths } }), new Set(), undefined);
    expect(selection).toMatchObject({ run: true, files: ['a.ts'], partial: false });
  });

  it('a changed file another config owns does not trigger this one', () => {
    const root = gate('test', ['**/*.ts']);
    const change = { paths: ['packages/app/src/a.ts'], all: false };
    const [selection] = selectGates([root], change, '/repo', scoped({ '/repo': { paths: [] }, '/repo/packages/app': { paths: change.paths } }), new Set(), undefined);
    expect(selection?.run).toBe(false);
  });

  it('a changed dependency runs the gate in full, with the upstream paths for the verdict key', () => {
    const web = gate('apps/web:test', ['**/*.js'], [], '/repo/apps/web', '/repo/apps/web', 'test');
    const change = { paths: ['packages/shared/index.js'], all: false };
    const scopes = scoped({ '/repo/apps/web': { paths: [], upstream: { paths: change.paths, why: 'it depends on @acme/shared, which changed' } } });
    const [selection] = selectGates([web], change, '/repo', scopes, new Set(), undefined);
    expect(selection).toMatchObject({ run: true, partial: true, files: [], upstream: ['packages/shared/index.js'] });
    expect(selection?.reason).toBe('it depends on @acme/shared, which changed (the full run)');
  });

  it('honours GATE_SKIP and explicit names by full or own name, and runs everything when the change is unknown', () => {
    const all = selectGates(gates, { paths: [], all: true }, '/repo', new Map(), new Set(['docs']), undefined);
    expect(all.map((s) => s.run)).toEqual([true, false]);
    expect(all[1]?.reason).toMatch(/GATE_SKIP/);
    const only = selectGates(gates, { paths: [], all: true }, '/repo', new Map(), new Set(), new Set(['docs']));
    expect(only.map((s) => s.run)).toEqual([false, true]);
    const packaged = [gate('a:test', ['**'], [], '/repo/a', '/repo/a', 'test'), gate('b:test', ['**'], [], '/repo/b', '/repo/b', 'test'), gate('b:lint', ['**'], [], '/repo/b', '/repo/b', 'lint')];
    expect(selectGates(packaged, { paths: [], all: true }, '/repo', new Map(), new Set(['test']), undefined).map((s) => s.run)).toEqual([false, false, true]);
    expect(selectGates(packaged, { paths: [], all: true }, '/repo', new Map(), new Set(['a:test']), undefined).map((s) => s.run)).toEqual([false, true, true]);
  });

  it('matches dotfiles', () => {
    const change = { paths: ['.eslintrc.json'], all: false };
    const [selection] = selectGates([gate('lint', ['**/.eslintrc*'])], change, '/repo', scoped({ '/repo': { paths: change.paths } }), new Set(), undefined);
    expect(selection?.run).toBe(true);
  });
});
