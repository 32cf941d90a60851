import { mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lendDependencies, packageDirs } from '../../src/verdict/link-dependencies.js';

let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('the baseline copy borrows installed dependencies', () => {
  it('links external packages to the repository, and its own workspace packages to the copy', () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'gate-lend-')));
    const root = join(base, 'repo');
    const copy = join(base, 'copy');
    for (const dir of [root, copy]) mkdirSync(join(dir, 'packages', 'shared'), { recursive: true });
    mkdirSync(join(root, 'node_modules', '@acme'), { recursive: true });
    mkdirSync(join(root, 'node_modules', 'left-pad'));
    writeFileSync(join(root, 'node_modules', 'left-pad', 'index.js'), '');
    symlinkSync('../../packages/shared', join(root, 'node_modules', '@acme', 'shared'));
    // pnpm: a package's own node_modules, with a relative link to another package.
    mkdirSync(join(root, 'apps', 'web', 'node_modules', '@acme'), { recursive: true });
    mkdirSync(join(copy, 'apps', 'web'), { recursive: true });
    symlinkSync('../../../../packages/shared', join(root, 'apps', 'web', 'node_modules', '@acme', 'shared'));

    expect(lendDependencies(root, copy, ['', 'apps/web', 'packages/shared'])).toEqual([]);
    expect(readlinkSync(join(copy, 'node_modules', '@acme', 'shared'))).toBe(join(copy, 'packages', 'shared'));
    expect(readlinkSync(join(copy, 'node_modules', 'left-pad'))).toBe(join(root, 'node_modules', 'left-pad'));
    expect(readlinkSync(join(copy, 'apps', 'web', 'node_modules', '@acme', 'shared'))).toBe(join(copy, 'packages', 'shared'));
  });

  it('names a link into the work tree that the copy cannot take over (a folder the commit does not have)', () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'gate-lend-')));
    const root = join(base, 'repo');
    const copy = join(base, 'copy');
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    mkdirSync(join(root, 'local', 'util'), { recursive: true });
    mkdirSync(copy);
    symlinkSync('../local/util', join(root, 'node_modules', 'util'));
    expect(lendDependencies(root, copy, [''])).toEqual([`node_modules/util → local/util`]);
  });

  it('finds the package folders of a tree, not inside node_modules', () => {
    expect(packageDirs(['package.json', 'apps/web/package.json', 'apps/web/src/x.js', 'vendor/node_modules/x/package.json', 'mypackage.json'])).toEqual(['', 'apps/web']);
  });
});
