import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installed package's root, from either the bundled dist/ or the TypeScript sources. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'presets'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('stopgate: cannot find its presets/ folder');
    dir = parent;
  }
  return dir;
}
