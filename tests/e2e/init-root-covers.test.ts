import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// urql's layout (issue 27): the root's own scripts run `vitest` and `tsc` once over every package, a
// package's vitest config only builds on the root's, and one package is a suite of its own (excluded
// at the root, with a config that does not build on it). Real vitest and tsc.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const test = (name: string, imports: string, body: string) => `import { expect, test } from 'vitest';\n${imports}\n\ntest('${name}', () => {\n  ${body}\n});\n`;

function workspace(rootScripts: Record<string, string>): TempRepo {
  const files = {
    '.gitignore': 'node_modules\n',
    'package.json': json({ name: 'shop', private: true, type: 'module', scripts: rootScripts, devDependencies: { vitest: '4.1.12', typescript: '5.9.3' } }),
    'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
    'pnpm-lock.yaml': "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n\n  packages/app:\n    dependencies:\n      '@shop/core':\n        specifier: workspace:*\n        version: link:../core\n\n  packages/core: {}\n\n  packages/legacy: {}\n",
    'vitest.config.ts': "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({\n  test: {\n    exclude: ['packages/legacy/**', '**/node_modules/**'],\n  },\n});\n",
    'tsconfig.json': json({ compilerOptions: { strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler', target: 'es2022', skipLibCheck: true, types: [] }, include: ['packages'], exclude: ['**/node_modules'] }),
    'packages/core/package.json': json({ name: '@shop/core', version: '1.0.0', type: 'module', exports: './src/index.ts', scripts: { test: 'vitest' } }),
    'packages/core/vitest.config.ts': "import { mergeConfig } from 'vitest/config';\nimport base from '../../vitest.config';\n\nexport default mergeConfig(base, {});\n",
    'packages/core/tsconfig.json': json({ extends: '../../tsconfig.json', include: ['src'] }),
    'packages/core/src/index.ts': "export * from './money';\nexport * from './greet';\n",
    'packages/core/src/money.ts': 'export const toCents = (amount: number): number => Math.round(amount * 100);\n',
    'packages/core/src/greet.ts': 'export const greet = (name: string): string => `hello ${name}`;\n',
    'packages/core/src/money.test.ts': test('toCents rounds', "import { toCents } from './money';", 'expect(toCents(0.125)).toBe(13);'),
    'packages/app/package.json': json({ name: '@shop/app', version: '1.0.0', type: 'module', dependencies: { '@shop/core': 'workspace:*' }, scripts: { test: 'vitest' } }),
    'packages/app/tsconfig.json': json({ extends: '../../tsconfig.json', include: ['src'] }),
    'packages/app/src/total.ts': "import { toCents } from '@shop/core';\n\nexport const total = (amounts: number[]): number => amounts.reduce((sum, amount) => sum + toCents(amount), 0);\n",
    'packages/app/src/total.test.ts': test('total adds cents', "import { total } from './total';", 'expect(total([1, 2])).toBe(300);'),
    'packages/app/src/hello.test.ts': test('greets the customer', "import { greet } from '@shop/core';", "expect(greet('ann')).toBe('hello ann');"),
    'packages/legacy/package.json': json({ name: '@shop/legacy', version: '1.0.0', type: 'module', scripts: { test: 'vitest' } }),
    'packages/legacy/vitest.config.ts': "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { environment: 'node' } });\n",
    'packages/legacy/src/old.test.ts': test('legacy adds', '', 'expect(1 + 1).toBe(2);'),
    // An example app's config that imports the shared package: no config the root's `vitest run` loads.
    'examples/demo/vite.config.ts': "import { greet } from '../../packages/core/src/index';\n\nexport default { define: { GREETING: JSON.stringify(greet('demo')) } };\n",
  };
  const made = makeRepo(files, { nodeModules: 'with-gate', commit: false });
  const linkPath = join(made.dir, 'packages/app/node_modules/@shop/core');
  mkdirSync(dirname(linkPath), { recursive: true });
  symlinkSync(relative(dirname(linkPath), join(made.dir, 'packages/core')), linkPath);
  made.commit('initial');
  return made;
}

const gateNames = (r: TempRepo) => {
  const lines = readFileSync(join(r.dir, '.git/gate/stops.jsonl'), 'utf8').trim().split('\n');
  return (JSON.parse(lines.at(-1) ?? '{}') as { gates: Array<{ name: string }> }).gates.map((gate) => gate.name).sort();
};

describe('gate init where the root runs vitest and tsc over every package', () => {
  it('leaves the packages those runs check to the root config, and a shared change is checked by one vitest and one tsc', () => {
    repo = workspace({ test: 'vitest', check: 'tsc' });
    const init = runBin(['init', '--yes', '--no-check'], { cwd: repo.dir, env: repo.env });
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/no config in packages\/app and packages\/core: the root's scripts run tsc and vitest once over the workspace/);
    expect(existsSync(join(repo.dir, 'packages/core/gate.config.json'))).toBe(false);
    expect(existsSync(join(repo.dir, 'packages/app/gate.config.json'))).toBe(false);
    // Its own suite (excluded at the root, a config of its own): its own gates.
    expect(JSON.parse(readFileSync(join(repo.dir, 'packages/legacy/gate.config.json'), 'utf8')).gates).toContainEqual({ name: 'test', preset: 'vitest' });
    expect(JSON.parse(readFileSync(join(repo.dir, 'gate.config.json'), 'utf8')).gates).toEqual(expect.arrayContaining([{ name: 'test', preset: 'vitest' }, { name: 'typecheck', preset: 'tsc' }]));
    repo.git('add', '-A');
    repo.commit('gate init');

    promptStart(repo);
    repo.write('packages/core/src/greet.ts', 'export const greet = (name: string): string => `hi ${name}`;\n');
    const status = JSON.parse(runBin(['status', '--json'], { cwd: repo.dir, env: repo.env }).stdout) as { gates: Array<{ name: string; tier?: string }> };
    expect(status.gates.find((gate) => gate.name === 'test')?.tier).toBe('1 of 4 test files reach packages/core/src/greet.ts');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('greets the customer');
    expect(blocked.stderr).not.toMatch(/has no gate\.config\.json|no config of its own/);
    // One process per tool over the packages, not one per package.
    expect(gateNames(repo)).toEqual(['test', 'typecheck']);

    repo.write('packages/core/src/greet.ts', 'export const greet = (name: string): number => `hello ${name}`;\n');
    const typeError = stop(repo, 'session-1', { stop_hook_active: true });
    expect(typeError.code).toBe(2);
    expect(typeError.stderr).toMatch(/packages\/core\/src\/greet\.ts.*TS2322/s);
  });

  it('writes a config per package when the root only runs the packages\' own scripts', () => {
    repo = workspace({ test: 'pnpm -r test' });
    const init = runBin(['init', '--yes', '--no-check'], { cwd: repo.dir, env: repo.env });
    expect(init.code).toBe(0);
    expect(existsSync(join(repo.dir, 'packages/core/gate.config.json'))).toBe(true);
    expect(existsSync(join(repo.dir, 'packages/app/gate.config.json'))).toBe(true);
  });
});
