import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { build, presetGate, run, stateOf } from '../helpers/fast-tier.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { requireTypescript7, TYPESCRIPT_7 } from '../helpers/typescript-versions.js';

// Issue 39, point 4: the tsc preset on TypeScript 7 (the native compiler), as a project that
// installed `typescript@7` runs it: node_modules/.bin/tsc is 7's.
const ready = requireTypescript7();

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', outDir: 'dist', types: ['*'] }, include: ['src'] });
const PRICE = 'export function price(cents: number): number {\n  return cents / 100;\n}\n';
const BROKEN_PRICE = 'export function price(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n';
const filler = (name: string) => [`src/${name}.ts`, `export const ${name}: number = 1;\n`];

function project(files: Record<string, string>) {
  repo = makeRepo({ '.gitignore': 'node_modules\ndist\nout\n', ...files });
  symlinkSync(TYPESCRIPT_7.nodeModules, join(repo.dir, 'node_modules'));
  const gate = presetGate(repo.dir, 'tsc', {}, 'typecheck');
  return { gate, env: repo.env };
}

const errors = (output: string) => filterOutput('tsc', output).failures.map(({ file, line, id }) => `${file}:${line} ${/TS\d+/.exec(id)?.[0]}`);

describe.skipIf(!ready)('the tsc preset on TypeScript 7', () => {
  it('checks the files a change reaches (its subset tsconfig: extends, files, typeRoots, rootDir), blocks on the error with file, line and code, passes after the fix', async () => {
    const { gate, env } = project({
      'tsconfig.json': TSCONFIG,
      'src/price.ts': PRICE,
      'src/cart.ts': "import { price } from './price.js';\n\nexport const total: number = price(250);\n",
      // Red before the turn; nothing in it reaches price.ts: the subset leaves it out, the full run doesn't.
      'src/old.ts': "export const old: number = 'red';\n",
      ...Object.fromEntries(['a', 'b', 'c'].map(filler)),
    });
    expect(readFileSync(join(repo.dir, 'node_modules', 'typescript', 'package.json'), 'utf8')).toContain('"version": "7.');
    repo.write('src/price.ts', BROKEN_PRICE);
    const command = await build(repo.dir, gate, ['src/price.ts']);
    expect(command).toMatchObject({ fast: true, why: '2 of 6 files: those the change reaches, and the declaration files and scripts' });
    const { cacheDir } = stateOf(repo.dir, gate);
    expect(command.argv).toEqual(['tsc', '--noEmit', '--pretty', 'false', '-p', join(cacheDir, 'tsconfig.subset.json'), '--incremental', '--tsBuildInfoFile', join(cacheDir, 'subset.tsbuildinfo')]);
    const blocked = await run(repo.dir, gate, ['src/price.ts'], env);
    expect(blocked.status).toBe('failed');
    expect(errors(blocked.output)).toEqual(['src/cart.ts:3 TS2322']);
    expect(existsSync(join(cacheDir, 'subset.tsbuildinfo'))).toBe(true);

    repo.write('src/cart.ts', "import { price } from './price.js';\n\nexport const total: string = price(250);\n");
    const fixed = await run(repo.dir, gate, ['src/price.ts', 'src/cart.ts'], env);
    expect(fixed.output).toBe('');
    expect(fixed.status).toBe('passed');

    // The full run, its .tsbuildinfo under gate's state too: the old error is in it.
    const full = await run(repo.dir, gate, [], env, true);
    expect(full.command).toMatch(/--incremental --tsBuildInfoFile \S+\/full\.tsbuildinfo$/);
    expect(errors(full.output)).toEqual(['src/old.ts:1 TS2322']);
  });

  it('runs tsc -b where tsconfig.json has project references: blocks on the error, passes after the fix', async () => {
    const composite = (outDir: string, extra: object = {}) => JSON.stringify({ compilerOptions: { composite: true, strict: true, types: [], outDir }, include: ['*.ts'], ...extra });
    const { gate, env } = project({
      'tsconfig.json': '{\n  // a solution file\n  "files": [],\n  "references": [{ "path": "./core" }, { "path": "./app" }]\n}\n',
      'core/tsconfig.json': composite('../out/core'),
      'core/price.ts': PRICE,
      'app/tsconfig.json': composite('../out/app', { references: [{ path: '../core' }] }),
      'app/cart.ts': "import { price } from '../core/price.js';\n\nexport const total: number = price(250);\n",
    });
    repo.write('core/price.ts', BROKEN_PRICE);
    expect((await build(repo.dir, gate, ['core/price.ts'])).argv).toEqual(['tsc', '-b', '--pretty', 'false']);
    const blocked = await run(repo.dir, gate, ['core/price.ts'], env);
    expect(blocked.status).toBe('failed');
    expect(errors(blocked.output)).toEqual(['app/cart.ts:3 TS2322']);
    repo.write('app/cart.ts', "import { price } from '../core/price.js';\n\nexport const total: string = price(250);\n");
    const fixed = await run(repo.dir, gate, ['core/price.ts', 'app/cart.ts'], env);
    expect(fixed.status).toBe('passed');
  });
});
