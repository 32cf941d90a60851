// Two bundles:
// - dist/hook.cjs: `gate run`'s hot path as one CommonJS file, so that a stop with nothing to check
//   loads no ESM loader and no module it doesn't use; its slow half is imported from the ESM build.
// - dist/*.js: everything else as ES modules with code splitting, each command imported lazily.
import { build } from 'esbuild';
import { rename, rm } from 'node:fs/promises';

// Dependencies are bundled too: the package then runs from a copy without node_modules (the Claude
// Code plugin cache), and start-up loads fewer files.
const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' };

// Built beside dist/ and swapped in whole: tests running from dist/ never see it half-written.
const dist = new URL('../dist', import.meta.url);
const staging = `dist.partial-${process.pid}`;
await rm(staging, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: {
    cli: 'src/cli.ts',
    'commands/run-stop-gates': 'src/commands/run-stop-gates.ts',
    'commands/run-outside-git': 'src/commands/run-outside-git.ts',
    'config/json-schema': 'src/config/json-schema.ts',
    'init/presets-doc': 'src/init/presets-doc.ts',
    'filters/filter-output': 'src/filters/filter-output.ts',
  },
  outdir: staging,
  splitting: true,
  format: 'esm',
  // Bundled CommonJS dependencies call require(); ES modules have none of their own.
  banner: { js: "import { createRequire as __gateCreateRequire } from 'node:module'; const require = __gateCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
});

// The hot path's lazy imports stay imports, pointing at the ESM build's stable entry files.
const slowHalf = {
  name: 'slow-half-from-esm-build',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\/run-(stop-gates|outside-git)\.js$/ }, (args) => ({
      path: `./commands/${args.path.slice(2)}`,
      external: true,
    }));
  },
};
await build({
  ...common,
  entryPoints: ['src/hook-main.ts'],
  outfile: `${staging}/hook.cjs`,
  format: 'cjs',
  supported: { 'dynamic-import': true },
  plugins: [slowHalf],
});

// Another build may swap its dist/ in between the two renames: move that one aside too, and retry.
const old = `dist.old-${process.pid}`;
for (let attempt = 1; ; attempt++) {
  await rm(old, { recursive: true, force: true });
  await rename(dist, old).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  try {
    await rename(staging, dist);
    break;
  } catch (error) {
    if (attempt === 5 || (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST')) throw error;
  }
}
await rm(old, { recursive: true, force: true });
