// TypeScript: zod 4.6.7, from its npm tarball (it ships src/ with its vitest suite). The tree is
// what its repository would hold — src/, package.json, LICENSE, README — plus the config its
// repository has and the tarball doesn't: a vitest config pointing "zod/…" at src/ (as bench.mjs),
// a tsconfig, a biome.json. The few rules and test files that fail before any edit (missing
// optional test dependencies, six biome errors) are switched off, so that a red stop is the edit's.
import { cpSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npmPackage, run } from './fetch.mjs';

const VERSION = '4.6.7';

// Test files importing packages that aren't installed here (@web-std/file, recheck, an OpenAPI validator).
const NEEDS_MISSING_PACKAGES = ['src/v4/classic/tests/file.test.ts', 'src/v4/classic/tests/redos.test.ts', 'src/v4/classic/tests/to-json-schema.test.ts'];

const ALIASES = [
  ['zod/v4/core', 'v4/core/index.ts'],
  ['zod/v4/locales', 'v4/locales/index.ts'],
  ['zod/v4-mini', 'v4-mini/index.ts'],
  ['zod/mini', 'mini/index.ts'],
  ['zod/v4', 'v4/index.ts'],
  ['zod/v3', 'v3/index.ts'],
  ['zod/compile', 'compile.ts'],
  ['zod/locales', 'locales/index.ts'],
  ['zod', 'index.ts'],
];

function vitestConfig() {
  const aliases = ALIASES.map(([find, file]) => `    { find: /^${find.replaceAll('/', '\\/')}$/, replacement: fileURLToPath(new URL('./src/${file}', import.meta.url)) },`);
  return [
    "import { fileURLToPath } from 'node:url';",
    "import { defineConfig } from 'vitest/config';",
    '',
    'export default defineConfig({',
    "  cacheDir: '.vite',",
    '  resolve: {',
    '    alias: [',
    ...aliases,
    '    ],',
    '  },',
    `  test: { include: ['src/**/*.test.ts'], exclude: ${JSON.stringify(NEEDS_MISSING_PACKAGES)} },`,
    '});',
    '',
  ].join('\n');
}

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    // zod's package.json maps "zod/…" to src/ under this condition, as its repository's tsconfig does.
    customConditions: ['@zod/source'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  },
  include: ['src'],
  exclude: ['src/v3/benchmarks', ...NEEDS_MISSING_PACKAGES],
};

function biomeConfig(rulesOff) {
  const rules = {};
  for (const category of rulesOff) {
    const [, group, rule] = category.split('/');
    rules[group] = { ...rules[group], [rule]: 'off' };
  }
  return { files: { includes: ['src/**'] }, formatter: { enabled: false }, assist: { enabled: false }, linter: { rules } };
}

/** The biome rules that report an error on the untouched tree. */
function biomeErrors(dir) {
  // biome exits 1 when it finds errors: here that is the answer, not a failure.
  const result = run(join(dir, 'node_modules', '.bin', 'biome'), ['lint', '--reporter=json', '--max-diagnostics=none', '.'], { cwd: dir }, [0, 1]);
  return [...new Set(JSON.parse(result).diagnostics.filter((d) => d.severity === 'error').map((d) => d.category))].sort();
}

export const zod = {
  id: 'zod',
  stack: 'ts',
  title: `zod ${VERSION}`,
  origin: `npm tarball zod@${VERSION}`,
  fetch: ({ cache }) => npmPackage(cache, 'zod', VERSION),
  prepare(source, dir, { root }) {
    for (const entry of ['src', 'package.json', 'LICENSE', 'README.md']) cpSync(join(source, entry), join(dir, entry), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, '.gitignore'), 'node_modules\n.vite/\n');
    writeFileSync(join(dir, 'vitest.config.mjs'), vitestConfig());
    writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
    writeFileSync(join(dir, 'biome.json'), `${JSON.stringify(biomeConfig([]), null, 2)}\n`);
    const off = biomeErrors(dir);
    writeFileSync(join(dir, 'biome.json'), `${JSON.stringify(biomeConfig(off), null, 2)}\n`);
    return off.length > 0 ? `biome rules off (they fail before any edit): ${off.join(', ')}` : '';
  },
  env: () => ({}),
  gates: [
    {
      preset: 'vitest',
      first: {
        what: 'src/v4/core/regexes.ts: the cuid regex wants 60+ characters (core, reached by every suite)',
        file: 'src/v4/core/regexes.ts',
        replace: ['/^[cC][0-9a-z]{6,}$/', '/^[cC][0-9a-z]{60,}$/'],
        expect: [/string\.test\.ts/, /cuid/],
      },
      second: {
        what: 'src/v4/mini/tests/number.test.ts: a new test with a wrong expectation',
        file: 'src/v4/mini/tests/number.test.ts',
        append: '\ntest("gate bench: z.number() rejects 1.5", () => {\n  expect(z.safeParse(z.number(), 1.5).success).toBe(false);\n});\n',
        expect: [/number\.test\.ts/, /gate bench: z\.number\(\) rejects 1\.5/],
      },
    },
    {
      preset: 'tsc',
      first: {
        what: 'src/v4/core/util.ts: a string assigned to a number',
        file: 'src/v4/core/util.ts',
        append: '\nexport const gateBenchTypeError: number = "zod";\n',
        expect: [/src\/v4\/core\/util\.ts\(\d+,\d+\): error TS2322/],
      },
      second: {
        what: 'src/v4/mini/iso.ts: a number assigned to a string',
        file: 'src/v4/mini/iso.ts',
        append: '\nexport const gateBenchIsoTypeError: string = 42;\n',
        expect: [/src\/v4\/mini\/iso\.ts\(\d+,\d+\): error TS2322/],
      },
    },
    {
      preset: 'biome',
      first: {
        what: 'src/v4/core/util.ts: a debugger statement',
        file: 'src/v4/core/util.ts',
        append: '\nexport function gateBenchDebugger(): void {\n  debugger;\n}\n',
        expect: [/src\/v4\/core\/util\.ts:\d+:\d+/, /noDebugger/],
      },
      second: {
        what: 'src/v4/mini/iso.ts: a debugger statement',
        file: 'src/v4/mini/iso.ts',
        append: '\nexport function gateBenchIsoDebugger(): void {\n  debugger;\n}\n',
        expect: [/src\/v4\/mini\/iso\.ts:\d+:\d+/, /noDebugger/],
      },
    },
  ],
};
