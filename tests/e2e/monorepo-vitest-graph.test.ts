import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const test = (name: string, imports: string, body: string) => `import { expect, test } from 'vitest';\n${imports}\n\ntest('${name}', () => {\n  ${body}\n});\n`;
const gatesOf = (r: TempRepo) => (JSON.parse(runBin(['status', '--json'], { cwd: r.dir, env: r.env }).stdout) as { gates: Array<{ name: string; runs: boolean; tier?: string; command?: string }> }).gates;

// A pnpm workspace: app depends on core, whose entry is a barrel; app's tests each use one of its names.
function workspace(): TempRepo {
  const files = {
    '.gitignore': 'node_modules\n',
    'package.json': json({ name: 'shop', private: true, type: 'module', devDependencies: { vitest: '4.1.12' } }),
    'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
    'pnpm-lock.yaml': "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n\n  packages/app:\n    dependencies:\n      '@shop/core':\n        specifier: workspace:*\n        version: link:../core\n\n  packages/core: {}\n",
    'gate.config.json': json({ workspaces: 'pnpm' }),
    'packages/core/package.json': json({ name: '@shop/core', version: '1.0.0', type: 'module', exports: './src/index.ts' }),
    'packages/core/gate.config.json': json({ gates: [{ name: 'test', preset: 'vitest' }] }),
    'packages/core/src/index.ts': "export * from './money';\nexport * from './greet';\n",
    'packages/core/src/money.ts': 'export const toCents = (amount: number): number => Math.round(amount * 100);\n',
    'packages/core/src/greet.ts': 'export const greet = (name: string): string => `hello ${name}`;\n',
    'packages/core/src/money.test.ts': test('toCents rounds', "import { toCents } from './money';", 'expect(toCents(0.125)).toBe(13);'),
    'packages/app/package.json': json({ name: '@shop/app', version: '1.0.0', type: 'module', dependencies: { '@shop/core': 'workspace:*' } }),
    'packages/app/gate.config.json': json({ gates: [{ name: 'test', preset: 'vitest' }, { name: 'typecheck', preset: 'tsc' }] }),
    'packages/app/tsconfig.json': json({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true, skipLibCheck: true }, include: ['src'] }),
    'packages/app/src/total.ts': "import { toCents } from '@shop/core';\n\nexport const total = (amounts: number[]): number => amounts.reduce((sum, amount) => sum + toCents(amount), 0);\n",
    'packages/app/src/total.test.ts': test('total adds cents', "import { total } from './total';", 'expect(total([1, 2])).toBe(300);'),
    'packages/app/src/hello.test.ts': test('greets the customer', "import { greet } from '@shop/core';", "expect(greet('ann')).toBe('hello ann');"),
  };
  const made = makeRepo(files, { nodeModules: true, commit: false });
  const linkPath = join(made.dir, 'packages/app/node_modules/@shop/core');
  mkdirSync(dirname(linkPath), { recursive: true });
  symlinkSync(relative(dirname(linkPath), join(made.dir, 'packages/core')), linkPath);
  made.commit('initial');
  return made;
}

describe('a dependent package runs the tests that reach the change in the package it depends on', () => {
  it('runs the dependent test that uses the changed name, not the one that uses another, and blocks on it', () => {
    repo = workspace();
    promptStart(repo);
    repo.write('packages/core/src/greet.ts', 'export const greet = (name: string): string => `hi ${name}`;\n');
    const app = gatesOf(repo).find((gate) => gate.name === 'packages/app:test');
    expect(app).toMatchObject({ runs: true, tier: '1 of 2 test files reach ../core/src/greet.ts', command: 'cd packages/app && pnpm exec vitest run --reporter=default --passWithNoTests src/hello.test.ts' });
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('greets the customer');
    expect(blocked.stderr).not.toContain('total adds cents');
  });

  it('runs no test of the package or its dependents when the change there is a comment (urql: every exchange ran core\'s callers)', () => {
    repo = workspace();
    promptStart(repo);
    repo.write('packages/core/src/greet.ts', '/** Says hello. */\nexport const greet = (name: string): string => `hello ${name}`; // to anyone\n');
    const gates = gatesOf(repo) as Array<{ name: string; runs: boolean; reason?: string }>;
    const why = 'packages/core/src/greet.ts changed in comments, formatting or types only: no code its tests run changed';
    expect(gates.find((gate) => gate.name === 'packages/app:test')).toMatchObject({ runs: false, reason: why });
    expect(gates.find((gate) => gate.name === 'packages/core:test')).toMatchObject({ runs: false, reason: 'src/greet.ts changed in comments, formatting or types only: no code its tests run changed' });
    // The dependent's type checker reads core's code as it was: it runs nothing either.
    expect(gates.find((gate) => gate.name === 'packages/app:typecheck')).toMatchObject({ runs: false, reason: 'packages/core/src/greet.ts changed in comments or layout only: the type checker reads the same code' });
    // A type changed in core: it checks the dependent again.
    repo.write('packages/core/src/greet.ts', 'export const greet = (name: string): string | undefined => `hello ${name}`;\n');
    expect(gatesOf(repo).find((gate) => gate.name === 'packages/app:typecheck')?.runs).toBe(true);
  });

  it('runs the dependent in full when the package it depends on changed its manifest', () => {
    repo = workspace();
    repo.write('packages/core/package.json', json({ name: '@shop/core', version: '1.0.1', type: 'module', exports: './src/index.ts' }));
    const app = gatesOf(repo).find((gate) => gate.name === 'packages/app:test');
    expect(app).toMatchObject({ runs: true, command: 'cd packages/app && pnpm exec vitest run --reporter=default' });
  });
});
