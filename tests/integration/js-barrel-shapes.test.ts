import { join } from 'node:path';
import * as prettier from 'prettier';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type ResolvedGate } from '../../src/config/load-config.js';
import { loadPresets } from '../../src/config/load-presets.js';
import { detectPresets } from '../../src/init/detect-presets.js';
import { dropEmptySuites } from '../../src/init/drop-empty-suites.js';
import { readRepoFacts } from '../../src/init/repo-facts.js';
import { renderStarterConfig } from '../../src/init/starter-config.js';
import { narrowBarrelAdditions } from '../../src/plan/barrel-additions.js';
import { headSnapshot } from '../../src/snapshot/snapshot.js';
import { build, presetGate, run } from '../helpers/fast-tier.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

const test = (name: string, imports: string, body: string) => `import { expect, test } from 'vitest';\n${imports}\n\ntest('${name}', () => {\n  ${body}\n});\n`;

// Every test imports the package entry, a barrel that re-exports every module (as radashi does).
const library = {
  '.gitignore': 'node_modules\n',
  'package.json': `${JSON.stringify({ name: 'shop', private: true, type: 'module', devDependencies: { vitest: '4.1.12' } }, null, 2)}\n`,
  'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true, paths: { shop: ['./src/index.ts'] } }, include: ['src', 'tests'] }, null, 2)}\n`,
  'src/index.ts': "export * from './sum';\nexport * from './greet';\n",
  'src/sum.ts': 'export const sum = (a: number, b: number): number => a + b;\n',
  'src/greet.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
  'tests/sum.test.ts': test('sum adds', "import * as shop from 'shop';", 'expect(shop.sum(1, 2)).toBe(3);'),
  'tests/greet.test.ts': test('greet greets', "import { greet } from 'shop';", "expect(greet('ann')).toBe('hello ann');"),
  'tests/exports.test.ts': test('exports every function', "import * as shop from 'shop';", "expect(Object.keys(shop).sort()).toEqual(['greet', 'sum']);"),
};

describe('vitest through a barrel: a module and its own test changed together', () => {
  it("runs the test and the tests that reach the module: the test file's own top-level code reaches nothing else", async () => {
    repo = makeRepo(library, { nodeModules: true });
    repo.write('src/greet.ts', 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n');
    repo.write('tests/greet.test.ts', test('greet greets', "import { greet } from 'shop';", "expect(greet('ann')).toBe('hi ann');"));
    const gate = presetGate(repo.dir, 'vitest', repo.env);
    expect(await build(repo.dir, gate, ['src/greet.ts', 'tests/greet.test.ts'])).toMatchObject({
      fast: true,
      why: '2 of 3 test files reach 2 changed files (tests/exports.test.ts takes all of src/index.ts)',
      argv: expect.arrayContaining(['tests/exports.test.ts', 'tests/greet.test.ts']),
    });
    expect((await build(repo.dir, gate, ['src/greet.ts', 'tests/greet.test.ts'])).argv).not.toContain('tests/sum.test.ts');
  });

  it('still runs every test that loads the barrel when a changed module something imports does something as it loads', async () => {
    repo = makeRepo({ ...library, 'tests/helper.ts': "export const names = ['ann'];\n", 'tests/greet.test.ts': test('greet greets', "import { greet } from 'shop';\nimport { names } from './helper';", "expect(greet(names[0] ?? '')).toBe('hello ann');") }, { nodeModules: true });
    repo.write('src/greet.ts', "export function greet(name: string): string {\n  return `hello ${name}`;\n}\n\n(globalThis as Record<string, unknown>).shopLoaded = true;\n");
    repo.write('tests/greet.test.ts', test('greet greets', "import { greet } from 'shop';", "expect(greet('ann')).toBe('hello ann');"));
    const gate = presetGate(repo.dir, 'vitest', repo.env);
    expect((await build(repo.dir, gate, ['src/greet.ts', 'tests/greet.test.ts'])).why).toMatch(/^3 of 3 test files reach 2 changed files/);
  });
});

describe('a new function added to the barrel', () => {
  const addShout = (r: TempRepo, shout: string) => {
    r.write('src/shout.ts', shout);
    r.write('src/index.ts', `${library['src/index.ts']}export * from './shout';\n`);
    r.write('tests/shout.test.ts', test('shout shouts', "import { shout } from 'shop';", "expect(shout('a')).toBe('A');"));
  };
  const narrowed = async (r: TempRepo, gate: ResolvedGate) => {
    const files = ['src/index.ts', 'src/shout.ts', 'tests/shout.test.ts'];
    const [selection] = await narrowBarrelAdditions([{ gate, run: true, reason: 'src/index.ts and 2 more changed', files, partial: false }], { root: r.dir, base: headSnapshot(r.git('rev-parse', 'HEAD').trim()), start: undefined, env: r.env });
    return { selection, command: await build(r.dir, gate, selection?.files ?? []) };
  };

  it('reaches the tests of the new name and those that take the barrel whole, not every test that imports the barrel', async () => {
    repo = makeRepo(library, { nodeModules: true });
    addShout(repo, 'export const shout = (text: string): string => text.toUpperCase();\n');
    const { selection, command } = await narrowed(repo, presetGate(repo.dir, 'vitest', repo.env));
    expect(selection?.reason).toBe('src/index.ts and 2 more changed; src/index.ts only adds re-exports: a change of src/shout.ts for its tests');
    expect(command.why).toBe('2 of 4 test files reach 2 changed files (tests/exports.test.ts takes all of src/index.ts)');
  });

  it('still reaches the tests of a name the new module shadows, and every barrel loader when it does something as it loads', async () => {
    repo = makeRepo(library, { nodeModules: true });
    const gate = presetGate(repo.dir, 'vitest', repo.env);
    addShout(repo, 'export const shout = (text: string): string => text.toUpperCase();\nexport const greet = (name: string): string => name;\n');
    expect((await narrowed(repo, gate)).command.why).toBe('3 of 4 test files reach 2 changed files (tests/exports.test.ts takes all of src/index.ts)');
    addShout(repo, "export const shout = (text: string): string => text.toUpperCase();\nconsole.log('loaded');\n");
    expect((await narrowed(repo, gate)).command.why).toBe('4 of 4 test files reach 2 changed files (tests/exports.test.ts takes all of src/index.ts)');
  });
});

// The same barrel for the runners without a selection of their own: node --test and mocha, ES modules.
const nodeLibrary = (runner: 'node-test' | 'mocha') => {
  const check = (module: string, name: string, call: string, expected: string) =>
    `import assert from 'node:assert/strict';\n${runner === 'mocha' ? '' : "import { test } from 'node:test';\n"}import { ${name} } from '../src/index.js';\n\n${runner === 'mocha' ? 'it' : 'test'}('${module} works', () => assert.equal(${call}, ${expected}));\n`;
  return {
    '.gitignore': 'node_modules\n',
    'package.json': `${JSON.stringify({ name: 'shop', private: true, type: 'module', scripts: { test: runner === 'mocha' ? 'mocha' : 'node --test' } }, null, 2)}\n`,
    ...(runner === 'mocha' ? { '.mocharc.json': '{ "spec": ["test/**/*.test.js"] }\n' } : {}),
    'src/index.js': "export * from './sum.js';\nexport { greet } from './greet.js';\n",
    'src/sum.js': 'export const sum = (a, b) => a + b;\n',
    'src/greet.js': 'export const greet = (name) => `hello ${name}`;\n',
    'test/sum.test.js': check('sum', 'sum', 'sum(1, 2)', '3'),
    'test/greet.test.js': check('greet', 'greet', "greet('ann')", "'hello ann'"),
    'test/all.test.js': `import assert from 'node:assert/strict';\n${runner === 'mocha' ? '' : "import { test } from 'node:test';\n"}import * as shop from '../src/index.js';\n\n${runner === 'mocha' ? 'it' : 'test'}('exports', () => assert.deepEqual(Object.keys(shop).sort(), ['greet', 'sum']));\n`,
  };
};

describe.each(['node-test', 'mocha'] as const)('%s through a barrel: the test files that use a name the change defines', (runner) => {
  it('runs the tests that use the changed module and the one that takes the whole barrel, not every test that imports it', async () => {
    repo = makeRepo(nodeLibrary(runner), { nodeModules: true });
    repo.write('src/greet.js', 'export const greet = (name) => `hi ${name}`;\n');
    const gate = presetGate(repo.dir, runner, repo.env);
    const command = await build(repo.dir, gate, ['src/greet.js']);
    expect(command).toMatchObject({ fast: true, why: '2 test files that import src/greet.js' });
    expect(command.argv.filter((word) => word.startsWith('test/'))).toEqual(['test/all.test.js', 'test/greet.test.js']);
    const result = await run(repo.dir, gate, ['src/greet.js'], repo.env);
    expect(result.status).toBe('failed');
    expect(result.output).toContain('greet works');
    expect(result.output).not.toContain('sum works');
  });

  it('still runs every test of the barrel when the barrel changed or the module does something as it loads', async () => {
    repo = makeRepo(nodeLibrary(runner), { nodeModules: true });
    const gate = presetGate(repo.dir, runner, repo.env);
    repo.write('src/index.js', "export * from './sum.js';\nexport { greet } from './greet.js';\nexport const version = 2;\n");
    expect((await build(repo.dir, gate, ['src/index.js'])).why).toBe('3 test files that import src/index.js');
    repo.write('src/greet.js', "export const greet = (name) => `hello ${name}`;\nglobalThis.loaded = true;\n");
    expect((await build(repo.dir, gate, ['src/greet.js'])).why).toBe('3 test files that import src/greet.js');
  });
});

describe('jest through a barrel: the test files that use a name the change defines', () => {
  const jestLibrary = (jestConfig: object = { transform: {} }) => ({
    '.gitignore': 'node_modules\n',
    'package.json': `${JSON.stringify({ name: 'shop', private: true, type: 'module', jest: jestConfig }, null, 2)}\n`,
    'src/index.js': "export * from './sum.js';\nexport { greet } from './greet.js';\n",
    'src/sum.js': 'export const sum = (a, b) => a + b;\n',
    'src/greet.js': 'export const greet = (name) => `hello ${name}`;\n',
    'src/__tests__/sum.js': "import { sum } from '../index.js';\n\ntest('sum works', () => expect(sum(1, 2)).toBe(3));\n",
    'test/greet.test.js': "import { greet } from '../src/index.js';\n\ntest('greet works', () => expect(greet('ann')).toBe('hello ann'));\n",
    'test/all.test.js': "import * as shop from '../src/index.js';\n\ntest('exports', () => expect(Object.keys(shop).sort()).toEqual(['greet', 'sum']));\n",
  });
  // Jest runs ES modules natively only with this flag (no transform installed here).
  const esm = { NODE_OPTIONS: '--experimental-vm-modules --no-warnings' };

  it('hands jest --runTestsByPath the files the change reaches, and jest runs the tests among them', async () => {
    repo = makeRepo(jestLibrary(), { nodeModules: true });
    repo.write('src/greet.js', 'export const greet = (name) => `hi ${name}`;\n');
    const gate = presetGate(repo.dir, 'jest', esm);
    const command = await build(repo.dir, gate, ['src/greet.js']);
    expect(command).toMatchObject({ fast: true, why: '2 of 3 test files reach src/greet.js (test/all.test.js takes all of src/index.js)' });
    expect(command.argv.slice(-4)).toEqual(['--runTestsByPath', '--passWithNoTests', 'test/all.test.js', 'test/greet.test.js']);
    const result = await run(repo.dir, gate, ['src/greet.js'], repo.env);
    expect(result.status).toBe('failed');
    expect(result.output).toContain('greet works');
    expect(result.output).toMatch(/Tests:\s+1 failed, 1 passed, 2 total/);
  });

  it("keeps jest's own selection where the graph can't be trusted: a file the config names that the change reaches, a moved rootDir", async () => {
    repo = makeRepo({ ...jestLibrary({ transform: {}, setupFiles: ['<rootDir>/test/setup.js'] }), 'test/setup.js': "import { greet } from '../src/greet.js';\n\nglobalThis.hello = greet('setup');\n" }, { nodeModules: true });
    const gate = presetGate(repo.dir, 'jest', esm);
    expect((await build(repo.dir, gate, ['src/greet.js'])).why).toBe("only what src/greet.js touches (jest's own selection: the jest config loads test/setup.js, which the change reaches)");
    expect((await build(repo.dir, gate, ['src/sum.js'])).why).toBe('2 of 3 test files reach src/sum.js (test/all.test.js takes all of src/index.js)');
    repo.write('package.json', `${JSON.stringify({ type: 'module', jest: { rootDir: 'src' } })}\n`);
    expect((await build(repo.dir, gate, ['src/sum.js'])).why).toBe("only what src/sum.js touches (jest's own selection: package.json \"jest\" sets rootDir or projects)");
  });
});

// graphql-js keeps mocha's spec in a script ("testonly": `mocha --full-trace src/**/__tests__/**/*-test.ts`),
// not in .mocharc.yml: plain `mocha` looks in ./test, finds nothing and fails on a clean checkout.
describe('mocha with its spec in a package.json script', () => {
  const shape = (scripts: Record<string, string>) => ({
    '.gitignore': 'node_modules\n',
    'package.json': `${JSON.stringify({ name: 'gql', private: true, type: 'module', scripts, devDependencies: { mocha: '12.0.3' } }, null, 2)}\n`,
    '.mocharc.yml': 'fail-zero: true\ncheck-leaks: true\n',
    'src/index.js': "export * from './language/print.js';\nexport * from './jsutils/inspect.js';\n",
    'src/language/print.js': 'export const print = (name) => `{ ${name} }`;\n',
    'src/jsutils/inspect.js': "export const inspect = (value) => (typeof value === 'function' ? '[function]' : String(value));\n",
    'src/language/__tests__/print-test.js': "import assert from 'node:assert';\nimport { print } from '../print.js';\n\nit('prints', () => assert.strictEqual(print('a'), '{ a }'));\n",
    'src/jsutils/__tests__/inspect-test.js': "import assert from 'node:assert';\nimport { inspect } from '../../index.js';\n\nit('inspects', () => assert.strictEqual(inspect(() => 0), '[function]'));\n",
  });

  it("writes the script's command (red before: no test files), runs green, and keeps the fast tier on it", async () => {
    repo = makeRepo(shape({ test: 'npm run lint && npm run testonly', testonly: 'mocha --full-trace --reporter dot src/**/__tests__/**/*-test.js', fuzzonly: 'mocha src/**/*-fuzz.js' }), { nodeModules: true });
    const detection = dropEmptySuites(detectPresets(readRepoFacts(repo.dir), loadPresets()), repo.dir, loadPresets());
    const chosen = detection.presets.find((entry) => entry.preset === 'mocha');
    expect(chosen?.run).toEqual(['mocha', '--full-trace', 'src/**/__tests__/**/*-test.js']);
    expect(chosen?.reasons.at(-1)).toBe('its tests are the spec of the package.json script "testonly" (mocha --full-trace src/**/__tests__/**/*-test.js), which the gate runs');
    const text = renderStarterConfig([{ name: 'test', preset: 'mocha', run: chosen?.run ?? [] }], undefined, { maxBlocks: 3, gates: [] });
    expect(await prettier.format(text, { parser: 'json' })).toBe(text);
    const plain = presetGate(repo.dir, 'mocha', {}, 'test');
    expect((await run(repo.dir, plain, [], repo.env, true)).output).toContain('No test files found');
    const gate = loadConfig({ dir: repo.dir, team: { path: join(repo.dir, 'gate.config.json'), text }, hash: 'test' }, repo.dir).gates[0] as ResolvedGate;
    expect(await run(repo.dir, gate, [], repo.env, true)).toMatchObject({ status: 'passed' });
    repo.write('src/jsutils/inspect.js', "export const inspect = (value) => (typeof value === 'function' ? '[anonymous function]' : String(value));\n");
    const command = await build(repo.dir, gate, ['src/jsutils/inspect.js']);
    expect(command).toMatchObject({ fast: true, why: '1 test file that imports src/jsutils/inspect.js' });
    expect(command.argv.slice(-2)).toEqual(['--full-trace', 'src/jsutils/__tests__/inspect-test.js']);
    const result = await run(repo.dir, gate, ['src/jsutils/inspect.js'], repo.env);
    expect(result.status).toBe('failed');
    expect(result.output).toContain('1 failing');
  });

  it('writes no gate when no script names a spec with tests either, and says why', () => {
    repo = makeRepo(shape({ test: 'mocha --full-trace spec/**/*.spec.js' }), { nodeModules: true });
    const detection = dropEmptySuites(detectPresets(readRepoFacts(repo.dir), loadPresets()), repo.dir, loadPresets());
    expect(detection.presets.map((entry) => entry.preset)).not.toContain('mocha');
    expect(detection.notes.join('\n')).toContain("no file matches the spec of mocha's default ./test (test), nor the spec of a package.json script that runs mocha");
  });
});
