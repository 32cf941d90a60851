import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installed package's root, from either the bundled dist/ or the TypeScript sources. */
export function packageRoot(): string {
  // import.meta is empty in the CommonJS hook bundles (dist/*.cjs), which have __dirname instead.
  let dir = import.meta.url ? dirname(fileURLToPath(import.meta.url)) : __dirname;
  while (!existsSync(join(dir, 'presets'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('stopgate: cannot find its presets/ folder');
    dir = parent;
  }
  return dir;
}
