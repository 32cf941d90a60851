// Bundles src/ into dist/ with code splitting, so `gate run`'s no-change path loads one small file
// and everything else (zod, execa, the runner, init) arrives through lazy imports.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: ['src/cli.ts', 'src/config/json-schema.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: false,
  logLevel: 'warning',
});
