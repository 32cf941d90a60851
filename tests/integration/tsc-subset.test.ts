import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planTscSubset } from '../../src/fast/tsc-subset.js';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

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
