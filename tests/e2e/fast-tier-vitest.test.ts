import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const statusOf = (r: TempRepo) => (JSON.parse(runBin(['status', '--json'], { cwd: r.dir, env: r.env }).stdout) as { gates: Array<{ fast?: boolean; tier?: string; command?: string }> }).gates[0];
const lastStop = (r: TempRepo) => (JSON.parse(runBin(['log', '--json'], { cwd: r.dir, env: r.env }).stdout) as Array<{ gates: Array<{ tier?: string }> }>).at(-1);
const gateLog = (r: TempRepo) => readFileSync(join(r.dir, '.git', 'gate', 'logs', 'test.log'), 'utf8');

const test = (name: string, imports: string, body: string) =>
  `import { expect, test } from 'vitest';\n${imports}\n\ntest('${name}', () => {\n  ${body}\n});\n`;

// A library the way most are laid out: every test imports the package entry, an alias of a barrel
// that re-exports every module (as radashi does).
const library = (setupFiles: string[] = []) => ({
  '.gitignore': 'node_modules\n',
  'package.json': `${JSON.stringify({ name: 'shop', private: true, type: 'module', devDependencies: { vitest: '4.1.12' } }, null, 2)}\n`,
  'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true, paths: { shop: ['./src/index.ts'] } }, include: ['src', 'tests'] }, null, 2)}\n`,
  'vitest.config.ts': [
    "import { fileURLToPath } from 'node:url';",
    "import { defineConfig } from 'vitest/config';",
    '',
    'export default defineConfig({',
    "  resolve: { alias: { shop: fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },",
    `  test: { setupFiles: ${JSON.stringify(setupFiles)} },`,
    '});',
    '',
  ].join('\n'),
  'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', preset: 'vitest' }] }, null, 2)}\n`,
  'src/index.ts': "export * from './sum';\nexport * from './greet';\nexport { cents as toCents } from './money';\n",
  'src/sum.ts': "import { toCents } from 'shop';\n\nexport const sum = (a: number, b: number): number => a + b;\nexport const sumCents = (a: number, b: number): number => toCents(a) + toCents(b);\n",
  'src/greet.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
  'src/money.ts': 'export const cents = (amount: number): number => Math.round(amount * 100);\n',
  'tests/sum.test.ts': test('sum adds', "import * as shop from 'shop';", 'expect(shop.sum(1, 2)).toBe(3);'),
  'tests/greet.test.ts': test('greet greets', "import { greet } from 'shop';", "expect(greet('ann')).toBe('hello ann');"),
  'tests/money.test.ts': test('toCents rounds', "import { toCents } from 'shop';", 'expect(toCents(0.125)).toBe(13);'),
  'tests/total.test.ts': test('sumCents adds cents', "import { sumCents } from 'shop';", 'expect(sumCents(1, 2)).toBe(300);'),
  'tests/exports.test.ts': test('exports every function', "import * as shop from 'shop';", "expect(Object.keys(shop).sort()).toEqual(['greet', 'sum', 'sumCents', 'toCents']);"),
});

describe('vitest through a barrel: the tests that use a name the change defines', () => {
  it('runs the tests that use the changed module, not every test that imports the barrel, and blocks on the one that fails', () => {
    repo = makeRepo(library(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/greet.ts', 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n');
    expect(statusOf(repo)).toMatchObject({
      fast: true,
      tier: '2 of 5 test files reach src/greet.ts (tests/exports.test.ts takes all of src/index.ts)',
      command: 'npx vitest run --reporter=default --passWithNoTests tests/exports.test.ts tests/greet.test.ts',
    });
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('greet greets');
    expect(blocked.stderr).toContain("expected 'hi ann' to be 'hello ann'");
    expect(gateLog(repo)).not.toMatch(/sum adds|toCents rounds|sumCents adds/);
    expect(lastStop(repo)?.gates[0]?.tier).toBe('2 of 5 test files reach src/greet.ts (tests/exports.test.ts takes all of src/index.ts)');
  });

  it('follows a renamed re-export and a module that takes names from the barrel itself', () => {
    repo = makeRepo(library(), { nodeModules: true });
    repo.write('src/money.ts', 'export const cents = (amount: number): number => Math.floor(amount * 100);\n');
    expect(statusOf(repo)).toMatchObject({
      // sum.test.ts uses only sum, but loads src/sum.ts, which imports the change.
      tier: '4 of 5 test files reach src/money.ts (tests/exports.test.ts takes all of src/index.ts)',
      command: 'npx vitest run --reporter=default --passWithNoTests tests/exports.test.ts tests/money.test.ts tests/sum.test.ts tests/total.test.ts',
    });
  });

  it('runs every test that takes names through a barrel that changed', () => {
    repo = makeRepo(library(), { nodeModules: true });
    repo.write('src/index.ts', "export * from './sum';\nexport * from './greet';\nexport { cents as toCents } from './money';\nexport const version = 2;\n");
    expect(statusOf(repo)?.tier).toBe('5 of 5 test files reach src/index.ts (tests/exports.test.ts takes all of src/index.ts)');
  });

  it('counts a new function the barrel only re-exports as a change of its module: its own test and the tests that take the barrel whole', () => {
    repo = makeRepo(library(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/shout.ts', 'export const shout = (text: string): string => text.toUpperCase();\n');
    repo.write('src/index.ts', "export * from './sum';\nexport * from './greet';\nexport { cents as toCents } from './money';\nexport * from './shout';\n");
    repo.write('tests/shout.test.ts', test('shout shouts', "import { shout } from 'shop';", "expect(shout('a')).toBe('A');"));
    expect(statusOf(repo)).toMatchObject({
      tier: '2 of 6 test files reach 2 changed files (tests/exports.test.ts takes all of src/index.ts)',
      command: 'npx vitest run --reporter=default --passWithNoTests tests/exports.test.ts tests/shout.test.ts',
    });
  });

  it('runs everything that loads the barrel when the changed module does something as it loads', () => {
    repo = makeRepo(library(), { nodeModules: true });
    repo.write('src/greet.ts', "export function greet(name: string): string {\n  return `hello ${name}`;\n}\n\n(globalThis as Record<string, unknown>).shopLoaded = true;\n");
    expect(statusOf(repo)?.tier).toMatch(/^5 of 5 test files reach src\/greet\.ts/);
  });

  it('leaves the selection to vitest when a setup file the config names reaches the change', () => {
    repo = makeRepo({ ...library(['./tests/setup.ts']), 'tests/setup.ts': "import { greet } from '../src/greet';\n\n(globalThis as Record<string, unknown>).hello = greet('setup');\n" }, { nodeModules: true });
    repo.write('src/greet.ts', 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n');
    expect(statusOf(repo)).toMatchObject({
      tier: "only what src/greet.ts touches (vitest's own selection: the test config loads tests/setup.ts, which the change reaches)",
      command: `npx vitest related --run --reporter=default --passWithNoTests ${repo.dir}/src/greet.ts`,
    });
  });

  it('says in the stop log when a narrowed run found no test to run (right here; a wrong root where a test should have run)', () => {
    repo = makeRepo({ ...library(), 'src/unused.ts': 'export const unused = 1;\n' }, { nodeModules: true });
    promptStart(repo);
    repo.write('src/unused.ts', 'export const unused = 2;\n');
    expect(stop(repo).code).toBe(0);
    expect(lastStop(repo)?.gates[0]?.tier).toBe('0 of 5 test files reach src/unused.ts; it found no test to run');
  });

  it('reads the setup files of a shared config that the test config builds on', () => {
    repo = makeRepo(
      {
        ...library(),
        'vitest.config.ts': "import { mergeConfig } from 'vitest/config';\nimport shared from './configs/shared';\n\nexport default mergeConfig(shared, {});\n",
        'configs/shared.ts': [
          "import { fileURLToPath } from 'node:url';",
          "import { defineConfig } from 'vitest/config';",
          '',
          'export default defineConfig({',
          "  resolve: { alias: { shop: fileURLToPath(new URL('../src/index.ts', import.meta.url)) } },",
          "  test: { setupFiles: [fileURLToPath(new URL('../tests/setup.ts', import.meta.url))] },",
          '});',
          '',
        ].join('\n'),
        'tests/setup.ts': "import { greet } from '../src/greet';\n\n(globalThis as Record<string, unknown>).hello = greet('setup');\n",
      },
      { nodeModules: true },
    );
    repo.write('src/greet.ts', 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n');
    expect(statusOf(repo)?.tier).toBe("only what src/greet.ts touches (vitest's own selection: the test config loads tests/setup.ts, which the change reaches)");
  });
});

// vitest's typecheck mode (radashi's): type tests (*.test-d.ts) that tsc checks, beside a tsc gate.
const typed = () => ({
  ...library(),
  'vitest.config.ts': [
    "import { fileURLToPath } from 'node:url';",
    "import { defineConfig } from 'vitest/config';",
    '',
    'export default defineConfig({',
    "  resolve: { alias: { shop: fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },",
    "  test: { typecheck: { enabled: true, include: ['tests/**/*.test-d.ts'] } },",
    '});',
    '',
  ].join('\n'),
  'tests/types.test-d.ts': "import { expectTypeOf, test } from 'vitest';\nimport * as shop from 'shop';\n\ntest('greet gives a string', () => {\n  expectTypeOf(shop.greet('ann')).toEqualTypeOf<string>();\n});\n",
  // No ambient types, no lib checks: tsc's share of each run small.
  'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true, skipLibCheck: true, types: [], lib: ['ES2022'], paths: { shop: ['./src/index.ts'] } }, include: ['src', 'tests'] }, null, 2)}\n`,
  'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', preset: 'vitest' }, { name: 'typecheck', preset: 'tsc' }] }, null, 2)}\n`,
});

describe("vitest's type tests", () => {
  it('leaves out a type test that only a change inside a body under a declared return type reaches', () => {
    repo = makeRepo(typed(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/greet.ts', "export function greet(name: string): string {\n  return 'hello ' + name;\n}\n");
    expect(stop(repo).code).toBe(0);
    expect(gateLog(repo)).toContain('tests/greet.test.ts');
    expect(lastStop(repo)?.gates[0]?.tier).toBe(
      '2 of 6 test files reach src/greet.ts (tests/exports.test.ts takes all of src/index.ts); not tests/types.test-d.ts: the declarations it checks are kept',
    );
    expect(gateLog(repo)).not.toContain('types.test-d.ts');
  });

  it('runs the type tests a declared type reaches, even when the emitted code is the same, and blocks on the one that fails', () => {
    repo = makeRepo(typed(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/greet.ts', 'export function greet(name: string): string | undefined {\n  return `hello ${name}`;\n}\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('tests/types.test-d.ts');
    expect(lastStop(repo)?.gates.find((gate) => gate.tier !== undefined)?.tier).toMatch(/^3 of 6 test files reach src\/greet\.ts/);
  });
});

describe("vitest with its own test.root (floating-ui: './test' in every package)", () => {
  // vitest resolves a relative path against test.root: src/greet.ts became test/src/greet.ts, no test
  // was found, --passWithNoTests passed, and a breaking change was let through.
  const rooted = (setup: boolean) => {
    const files: Record<string, string> = { ...library() };
    files['vitest.config.ts'] = [
      "import { fileURLToPath } from 'node:url';",
      "import { defineConfig } from 'vitest/config';",
      '',
      'export default defineConfig({',
      "  resolve: { alias: { shop: fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },",
      `  test: { root: './tests'${setup ? ", setupFiles: [fileURLToPath(new URL('./tests/setup.ts', import.meta.url))]" : ''} },`,
      '});',
      '',
    ].join('\n');
    if (setup) files['tests/setup.ts'] = "import { greet } from '../src/greet';\n\n(globalThis as Record<string, unknown>).hello = greet('setup');\n";
    return files;
  };
  const breakGreet = () => repo.write('src/greet.ts', 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n');

  it.each([
    ['its own graph', false],
    ["vitest's related selection", true],
  ])('through %s, a breaking change blocks', (_how, setup) => {
    repo = makeRepo(rooted(setup), { nodeModules: true });
    promptStart(repo);
    breakGreet();
    const blocked = stop(repo);
    expect(blocked.stderr).toContain("expected 'hi ann' to be 'hello ann'");
    expect(blocked.code).toBe(2);
  });
});
