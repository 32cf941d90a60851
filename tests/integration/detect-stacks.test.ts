import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-problem.js';
import { loadPresets } from '../../src/config/load-presets.js';
import { detectPresets, type Detection } from '../../src/init/detect-presets.js';
import { readRepoFacts } from '../../src/init/repo-facts.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function makeProject(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gate-detect-')));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

function packageJson(manifest: object): string {
  return `${JSON.stringify({ name: 'fixture', private: true, ...manifest }, null, 2)}\n`;
}

function detect(files: Record<string, string>): Detection {
  return detectPresets(readRepoFacts(makeProject(files)), loadPresets());
}

function gates(files: Record<string, string>): string[][] {
  return detect(files).presets.map((entry) => [entry.preset, entry.gateName]);
}

const PYPROJECT = `[project]
name = "fixture"
dependencies = [
    "requests",
    ["not", "a header"]
]

[tool.pytest.ini_options]
addopts = "-q"

[ tool . "ruff" ]   # spaced and quoted keys are still tool.ruff
line-length = 100

[[tool.mypy.overrides]]
module = "vendor.*"
`;

describe('readRepoFacts + detectPresets on real project directories', () => {
  it('a TypeScript repo: vitest, tsc and eslint, each with its reasons', () => {
    const detection = detect({
      'package.json': packageJson({ scripts: { test: 'vitest run' }, devDependencies: { eslint: '9.0.0', typescript: '5.9.3', vitest: '4.1.12' } }),
      'tsconfig.json': '{}\n',
      'eslint.config.js': 'export default [];\n',
      'package-lock.json': '{}\n',
    });
    expect(detection.presets).toEqual([
      { preset: 'vitest', gateName: 'test', reasons: ['package.json devDependencies has vitest', 'the package.json test script runs vitest'] },
      { preset: 'tsc', gateName: 'typecheck', reasons: ['tsconfig.json is present', 'package.json devDependencies has typescript'] },
      { preset: 'eslint', gateName: 'lint', reasons: ['package.json devDependencies has eslint', 'eslint.config.js is present'] },
    ]);
    expect(detection.packageManager).toEqual({ name: 'npm', reason: 'package-lock.json is present', plugAndPlay: false });
    expect(detection.notes).toEqual([]);
  });

  it.each<[string, Record<string, string>, string[][]]>([
    ['jest', { 'package.json': packageJson({ devDependencies: { jest: '30.0.0' } }), 'jest.config.js': 'module.exports = {};\n' }, [['jest', 'test']]],
    ['node --test', { 'package.json': packageJson({ scripts: { test: 'node --test' } }) }, [['node-test', 'test']]],
    ['mocha', { 'package.json': packageJson({}), '.mocharc.json': '{}\n' }, [['mocha', 'test']]],
    ['biome', { 'package.json': packageJson({ devDependencies: { '@biomejs/biome': '2.0.0' } }), 'biome.json': '{}\n' }, [['biome', 'lint']]],
    ['vitest and playwright', { 'package.json': packageJson({ devDependencies: { '@playwright/test': '1.50.0', vitest: '4.1.12' } }), 'playwright.config.ts': '' }, [['vitest', 'test']]],
    ['pyproject with pytest, ruff and mypy', { 'pyproject.toml': PYPROJECT }, [['pytest', 'test'], ['mypy', 'typecheck'], ['ruff', 'lint']]],
    ['setup.cfg with [tool:pytest]', { 'setup.cfg': '[metadata]\nname = fixture\n\n[tool:pytest]\ntestpaths = tests\n' }, [['pytest', 'test']]],
    ['go.mod', { 'go.mod': 'module example.com/fixture\n\ngo 1.22\n' }, [['go-test', 'test'], ['go-vet', 'lint']]],
    ['Cargo.toml', { 'Cargo.toml': '[package]\nname = "fixture"\nversion = "0.1.0"\n' }, [['cargo-test', 'test'], ['cargo-clippy', 'lint']]],
    [
      'package.json and pyproject together',
      { 'package.json': packageJson({ devDependencies: { vitest: '4.1.12', '@biomejs/biome': '2.0.0' } }), 'pyproject.toml': PYPROJECT },
      [['vitest', 'test'], ['pytest', 'test-python'], ['mypy', 'typecheck'], ['biome', 'lint'], ['ruff', 'lint-python']],
    ],
    ['an empty repo', {}, []],
  ])('%s', (_name, files, expected) => {
    expect(gates(files)).toEqual(expected);
  });

  it('reads the pyproject headers with a line scanner that ignores arrays', () => {
    expect(readRepoFacts(makeProject({ 'pyproject.toml': PYPROJECT })).sections['pyproject.toml']).toEqual([
      'project',
      'tool.pytest.ini_options',
      'tool.ruff',
      'tool.mypy.overrides',
    ]);
  });

  it('says so when nothing is detected', () => {
    expect(detect({ 'README.md': '# hi\n' }).notes).toEqual([expect.stringMatching(/^nothing detected/)]);
  });

  it.each([
    ['pnpm-lock.yaml', 'pnpm'],
    ['yarn.lock', 'yarn'],
    ['bun.lockb', 'bun'],
    ['bun.lock', 'bun'],
    ['package-lock.json', 'npm'],
  ])('%s → %s', (lockfile, manager) => {
    expect(detect({ 'package.json': packageJson({}), [lockfile]: '' }).packageManager?.name).toBe(manager);
  });

  it('honours packageManager and sees yarn Plug\'n\'Play', () => {
    const detection = detect({ 'package.json': packageJson({ packageManager: 'yarn@4.5.0' }), 'yarn.lock': '', '.pnp.cjs': '' });
    expect(detection.packageManager).toEqual({ name: 'yarn', reason: 'package.json packageManager is yarn@4.5.0', plugAndPlay: true });
  });

  it('an invalid package.json is a clear error naming the file and the position', () => {
    const dir = makeProject({ 'package.json': '{\n  "name": "fixture",\n  "devDependencies": { "vitest": "4" },\n}\n' });
    const read = () => readRepoFacts(dir);
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(`${join(dir, 'package.json')}: is not valid JSON at line 4, column 1`);
  });

  it('a package.json that is not an object is an error too', () => {
    const dir = makeProject({ 'package.json': '[]\n' });
    expect(() => readRepoFacts(dir)).toThrow(`${join(dir, 'package.json')}: is not a JSON object`);
  });
});
