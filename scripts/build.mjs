// Four bundles:
// - dist/hook.cjs: `gate run`'s hot path as one CommonJS file, so that a stop with nothing to check
//   loads no ESM loader and no module it doesn't use.
// - dist/hook-gates.cjs: the slow half of a stop in git (a change to check), required by hook.cjs
//   only then. CommonJS too: the ESM loader alone costs a checked stop more than the code it loads.
//   What even that stop rarely needs (validating a changed config, zod) comes from the ESM build.
// - dist/hook-post-edit.cjs: the post-edit nudge (a PostToolUse payload), required by hook.cjs then.
// - dist/*.js: everything else as ES modules with code splitting, each command imported lazily.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm } from 'node:fs/promises';

// A digest of what the bundles are made of: a stop's cached resolved config is only reused by the
// build that wrote it (src/state/config-cache.ts).
const digest = createHash('sha256');
const sources = (await readdir('src', { recursive: true })).filter((path) => path.endsWith('.ts')).sort();
for (const path of [...sources.map((source) => `src/${source}`), 'package-lock.json']) digest.update(`${path}\0`).update(await readFile(path));

// Dependencies are bundled too: the package then runs from a copy without node_modules (the Claude
// Code plugin cache), and start-up loads fewer files.
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  define: { __GATE_BUILD__: JSON.stringify(digest.digest('hex').slice(0, 16)) },
};

// What gate mcp never calls, left out of the package (four fifths of what the SDK would add): Ajv,
// which the server needs only to ask the client for input (src/mcp/gate-server.ts passes its own
// validator), and zod 3 with its JSON Schema converter, for tools declared in zod 3 (gate's are zod 4).
const unused = {
  'validation/ajv-provider.js': "export class AjvJsonSchemaValidator { constructor() { throw new Error('gate leaves Ajv out of its build'); } }",
  'zod/v3': "export function object() { throw new Error('gate leaves zod 3 out of its build'); }",
  'zod-to-json-schema': "export function zodToJsonSchema() { throw new Error('gate leaves zod-to-json-schema out of its build'); }",
};
const leaveOut = {
  name: 'leave-out-unused',
  setup(plugin) {
    plugin.onResolve({ filter: /(\/validation\/ajv-provider\.js|^zod\/v3|^zod-to-json-schema)$/ }, (args) => {
      if (!args.importer.includes('@modelcontextprotocol')) return undefined;
      const name = Object.keys(unused).find((key) => args.path.endsWith(key));
      return name === undefined ? undefined : { path: name, namespace: 'left-out' };
    });
    plugin.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({ contents: unused[args.path], loader: 'js' }));
  },
};

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
    'config/load-config': 'src/config/load-config.ts',
    'init/presets-doc': 'src/init/presets-doc.ts',
    'filters/filter-output': 'src/filters/filter-output.ts',
  },
  outdir: staging,
  splitting: true,
  format: 'esm',
  // Bundled CommonJS dependencies call require(); ES modules have none of their own.
  banner: { js: "import { createRequire as __gateCreateRequire } from 'node:module'; const require = __gateCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [leaveOut],
});

// The hot path's lazy imports: the slow half in git is required from hook-gates.cjs, outside git it
// is imported from the ESM build's stable entry file.
const slowHalf = {
  name: 'slow-half',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\/run-stop-gates\.js$/ }, () => ({ path: 'hook-gates', namespace: 'slow-half' }));
    plugin.onLoad({ filter: /.*/, namespace: 'slow-half' }, (args) => ({ contents: `module.exports = require('./${args.path === 'hook-post-edit' ? 'hook-post-edit' : 'hook-gates'}.cjs');`, loader: 'js' }));
    plugin.onResolve({ filter: /^\.\/hook-(?:gates|post-edit)\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    plugin.onResolve({ filter: /^\.\/run-outside-git\.js$/ }, (args) => ({ path: `./commands/${args.path.slice(2)}`, external: true }));
    // The post-edit nudge: its own small bundle, so a stop never parses the line detectors it needs.
    plugin.onResolve({ filter: /^\.\/post-edit\.js$/ }, () => ({ path: 'hook-post-edit', namespace: 'slow-half' }));
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

// A changed config is validated by the ESM build's loadConfig (zod), imported only on a cache miss.
const configFromEsm = {
  name: 'config-from-esm-build',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.\/config\/load-config\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: './config/load-config.js', external: true } : undefined,
    );
  },
};
await build({
  ...common,
  entryPoints: ['src/commands/run-stop-gates.ts'],
  outfile: `${staging}/hook-gates.cjs`,
  format: 'cjs',
  supported: { 'dynamic-import': true },
  // import.meta is empty in CommonJS; package-root.ts falls back to __dirname there.
  logOverride: { 'empty-import-meta': 'silent' },
  plugins: [configFromEsm],
});

await build({
  ...common,
  entryPoints: ['src/commands/post-edit.ts'],
  outfile: `${staging}/hook-post-edit.cjs`,
  format: 'cjs',
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
