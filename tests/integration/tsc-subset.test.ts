import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planTscSubset } from '../../src/fast/tsc-subset.js';
import { build, presetGate, stateOf } from '../helpers/fast-tier.js';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';
import { requireTypescript7, TYPESCRIPTS } from '../helpers/typescript-versions.js';

let base: string | undefined;
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

const TSC = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsc');

/** A workspace package with its own node_modules (as pnpm links them), its state at the repository's root. */
function workspacePackage(types: string[]): { pkg: string; cache: string } {
  base = mkdtempSync(join(tmpdir(), 'gate-tsc-subset-'));
  const pkg = join(base, 'packages', 'app');
  mkdirSync(join(pkg, 'src'), { recursive: true });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(pkg, 'node_modules'));
  writeFileSync(join(pkg, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', skipLibCheck: true, types }, include: ['src'] }));
  for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) writeFileSync(join(pkg, 'src', `${name}.ts`), `export const ${name}: number = 1;\n`);
  writeFileSync(join(pkg, 'src', 'uses-a.ts'), "import { a } from './a';\n\nexport const twice: number = a * 2;\n");
  return { pkg, cache: join(base, '.git', 'gate', 'cache', 'packages~app~typecheck') };
}

describe('the tsc subset tsconfig under gate\'s state', () => {
  it('checks as the project\'s own tsconfig does: no error of its own', () => {
    const { pkg, cache } = workspacePackage(['node']);
    const subset = planTscSubset(pkg, ['src/a.ts'], cache);
    expect(subset).toMatchObject({ files: 2, of: 7 });
    if (!('tsconfig' in subset)) throw new Error('no subset');
    const result = spawnSync(TSC, ['--noEmit', '--pretty', 'false', '-p', subset.tsconfig], { cwd: pkg, encoding: 'utf8' });
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  });

  it('checks the whole program when "types" names a package the subset could not find from gate\'s state', () => {
    const { pkg, cache } = workspacePackage(['vitest/globals']);
    // The project's own tsconfig finds it, from the package's node_modules.
    expect(spawnSync(TSC, ['--noEmit', '-p', 'tsconfig.json'], { cwd: pkg, encoding: 'utf8' }).status).toBe(0);
    expect(planTscSubset(pkg, ['src/a.ts'], cache)).toEqual({ why: '"types" names vitest/globals, which is not in node_modules/@types' });
  });
});

const typescript7 = requireTypescript7();

/** The diagnostics of `tsc -p <tsconfig>` in `cwd`, one per line, sorted (the subset lists its files in another order). */
function diagnostics(tsc: string, cwd: string, tsconfig: string): string[] {
  const result = spawnSync(tsc, ['--noEmit', '--pretty', 'false', '-p', tsconfig], { cwd, encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`.split('\n').filter((line) => /error TS\d+/.test(line)).sort();
}

// Issue 39, point 4: TypeScript 6+ takes the tsconfig's folder as rootDir, the subset's folder is gate's state.
describe.each(TYPESCRIPTS)('the tsc subset under $name', (typescript) => {
  it.skipIf(typescript.major === 7 && !typescript7)('with outDir set, gives the project\'s own diagnostics, for a file outside its folder too', () => {
    base = mkdtempSync(join(tmpdir(), 'gate-tsc-subset-'));
    const pkg = join(base, 'packages', 'app');
    mkdirSync(join(pkg, 'src'), { recursive: true });
    mkdirSync(join(base, 'shared'));
    symlinkSync(typescript.nodeModules, join(pkg, 'node_modules'));
    writeFileSync(join(pkg, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', types: [], outDir: 'dist' }, include: ['src'] }));
    writeFileSync(join(base, 'shared', 'money.ts'), 'export const cents = (amount: number): number => amount * 100;\n');
    writeFileSync(join(pkg, 'src', 'price.ts'), "import { cents } from '../../../shared/money';\n\nexport const price = (amount: number): number => cents(amount);\n");
    writeFileSync(join(pkg, 'src', 'cart.ts'), "import { price } from './price';\n\nexport const total: string = price(2);\n");
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) writeFileSync(join(pkg, 'src', `${name}.ts`), `export const ${name}: number = 1;\n`);
    const subset = planTscSubset(pkg, ['src/price.ts'], join(base, '.git', 'gate', 'cache', 'typecheck'));
    expect(subset).toMatchObject({ files: 2, of: 8 });
    if (!('tsconfig' in subset)) throw new Error('no subset');
    const tsc = join(typescript.nodeModules, '.bin', 'tsc');
    const own = diagnostics(tsc, pkg, 'tsconfig.json');
    // TypeScript 7 itself refuses the file outside rootDir; 5.9 takes the common folder of the files as rootDir.
    expect(own.map((line) => line.replace(/: error (TS\d+).*/, ' $1'))).toEqual(typescript.major === 7 ? ['src/cart.ts(3,14) TS2322', 'src/price.ts(1,23) TS6059'] : ['src/cart.ts(3,14) TS2322']);
    expect(diagnostics(tsc, pkg, subset.tsconfig)).toEqual(own);
  });
});

// Issue 39, point 4: a subset check is tsc's incremental check from the whole program's last one, not from cold.
it('checks the subset from the whole program\'s .tsbuildinfo: only the changed file and what imports it, not what they import', async () => {
  base = mkdtempSync(join(tmpdir(), 'gate-tsc-subset-'));
  const dir = join(base, 'repo');
  mkdirSync(join(dir, 'src'), { recursive: true });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', skipLibCheck: true, types: [] }, include: ['src'] }));
  writeFileSync(join(dir, 'src', 'money.ts'), 'export const cents = (amount: number): number => amount * 100;\n');
  writeFileSync(join(dir, 'src', 'price.ts'), 'export const price = (amount: number): number => amount;\n');
  writeFileSync(join(dir, 'src', 'cart.ts'), "import { cents } from './money';\nimport { price } from './price';\n\nexport const total: number = cents(price(2));\n");
  for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) writeFileSync(join(dir, 'src', `${name}.ts`), `export const ${name}: number = 1;\n`);
  const gate = presetGate(dir, 'tsc', {}, 'typecheck');
  const { cacheDir } = stateOf(dir, gate);
  const tsc = (args: string[]) => spawnSync(TSC, args, { cwd: dir, encoding: 'utf8' });
  // The whole program's incremental check, as presets/tsc.json's fast tier runs it when a change reaches most of it.
  mkdirSync(cacheDir, { recursive: true });
  expect(tsc(['--noEmit', '--pretty', 'false', '--incremental', '--tsBuildInfoFile', join(cacheDir, 'tsconfig.tsbuildinfo')]).status).toBe(0);
  writeFileSync(join(dir, 'src', 'price.ts'), 'export const price = (amount: number): string => String(amount);\n');
  const command = await build(dir, gate, ['src/price.ts']);
  expect(command.why).toBe('2 of 9 files: those the change reaches, and the declaration files and scripts');
  const trace = join(base, 'trace');
  const result = tsc([...command.argv.slice(1), '--generateTrace', trace]);
  expect(result.stdout).toMatch(/^src\/cart\.ts\(4,36\): error TS2345/);
  const checked = [...readFileSync(join(trace, 'trace.json'), 'utf8').matchAll(/"name":"checkSourceFile","args":\{"path":"[^"]*\/(src\/[^"]+)"/g)].map((match) => match[1]);
  // money.ts is in the subset's program (cart.ts imports it) and unchanged: its diagnostics come from the .tsbuildinfo.
  expect([...new Set(checked)].sort()).toEqual(['src/cart.ts', 'src/price.ts']);
});
