import { describe, expect, it } from 'vitest';
import { DEPENDENCY_FILES } from '../../src/config/dependency-files.js';
import type { ConfigFiles } from '../../src/config/find-config.js';
import { loadConfig, type ResolvedGate } from '../../src/config/load-config.js';
import { loadPresets } from '../../src/config/load-presets.js';
import { selectGates } from '../../src/plan/select-gates.js';

const DIR = '/repo';
const presets = [...loadPresets().values()];

function presetGate(preset: string, gate: object = {}): ResolvedGate {
  const files: ConfigFiles = { dir: DIR, hash: 'h', team: { path: `${DIR}/gate.config.json`, text: JSON.stringify({ gates: [{ name: 'check', preset, ...gate }] }) }, local: undefined };
  const [resolved] = loadConfig(files, DIR).gates;
  if (!resolved) throw new Error('no gate');
  return resolved;
}

function select(gate: ResolvedGate, paths: string[]) {
  const [selection] = selectGates([gate], { paths, all: false }, DIR, new Map([[DIR, { paths }]]), new Set(), undefined);
  return selection;
}

// The file names a glob like `requirements*.txt` stands for in a repository.
const example = (name: string) => name.replace('*', '-dev');

describe('lockfiles and manifests', () => {
  const cases = presets.flatMap((preset) => DEPENDENCY_FILES[preset.ecosystem].map((name) => [preset.id, example(name)] as const));

  it.each(cases)('%s runs in full when only %s changed', (preset, file) => {
    const selection = select(presetGate(preset), [file]);
    expect(selection).toMatchObject({ run: true, partial: true });
    expect(selection?.reason).toBe(`${file} changed, a lockfile or manifest (the full run)`);
  });

  it('a package folder\'s own lockfile runs a path-narrowing gate in full too', () => {
    expect(select(presetGate('pytest'), ['services/api/uv.lock'])).toMatchObject({ run: true, partial: true });
    expect(select(presetGate('vitest'), ['web/package.json'])).toMatchObject({ run: true, partial: true });
    expect(select(presetGate('go-test'), ['tools/go.sum'])).toMatchObject({ run: true, partial: true });
  });

  it('a member\'s manifest goes to a package tier, which runs that member (and its dependents) whole', () => {
    expect(select(presetGate('turbo-test'), ['packages/ui/package.json'])).toMatchObject({ run: true, partial: false });
    expect(select(presetGate('cargo-test'), ['crates/core/Cargo.toml'])).toMatchObject({ run: true, partial: false });
    expect(select(presetGate('turbo-test'), ['pnpm-lock.yaml'])).toMatchObject({ run: true, partial: true });
  });

  it('a source change keeps the fast tier, another ecosystem\'s lockfile triggers nothing', () => {
    expect(select(presetGate('pytest'), ['app/models.py'])).toMatchObject({ run: true, partial: false });
    expect(select(presetGate('pytest'), ['package-lock.json'])?.run).toBe(false);
    expect(select(presetGate('vitest'), ['uv.lock'])?.run).toBe(false);
  });

  it('a lockfile triggers a gate whose own command takes {files}, but is never one of its files', () => {
    const lint = presetGate('ruff', { run: 'ruff check {files}' });
    expect(select(lint, ['uv.lock', 'app/models.py'])).toMatchObject({ run: true, partial: true, files: ['app/models.py'] });
    expect(select(lint, ['uv.lock'])).toMatchObject({ run: true, files: [] });
  });

  it('a gate\'s own "on" is kept as written; a lockfile it lists still means the full run', () => {
    expect(select(presetGate('mypy', { on: ['src/**/*.py'] }), ['uv.lock'])?.run).toBe(false);
    expect(select(presetGate('mypy', { on: ['src/**/*.py', 'uv.lock'] }), ['uv.lock'])).toMatchObject({ run: true, partial: true });
  });
});
