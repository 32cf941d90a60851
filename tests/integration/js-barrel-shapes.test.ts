import { afterEach, describe, expect, it } from 'vitest';
import { build, presetGate } from '../helpers/fast-tier.js';
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
