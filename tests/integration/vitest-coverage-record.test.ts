import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, presetGate, run, stateOf } from '../helpers/fast-tier.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

const test = (name: string, imports: string, body: string) => `import { expect, test } from 'vitest';\n${imports}\n\ntest('${name}', () => {\n  ${body}\n});\n`;
const SUM = 'export const sum = (a: number, b: number): number => a + b;\n\nexport function double(a: number): number {\n  return a * 2;\n}\n';

// Every test reaches src/math.ts by the import graph (through the barrel); one calls double().
const library = {
  '.gitignore': 'node_modules\n',
  'package.json': `${JSON.stringify({ name: 'shop', private: true, type: 'module', devDependencies: { vitest: '4.1.12' } }, null, 2)}\n`,
  'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true, paths: { shop: ['./src/index.ts'] } }, include: ['src', 'tests'] }, null, 2)}\n`,
  'src/index.ts': "export * from './math';\n",
  'src/math.ts': SUM,
  'tests/sum.test.ts': test('sum adds', "import { sum } from '../src/index';", 'expect(sum(1, 2)).toBe(3);'),
  'tests/double.test.ts': test('double doubles', "import { double } from '../src/index';", 'expect(double(2)).toBe(4);'),
  'tests/exports.test.ts': test('exports every function', "import * as shop from '../src/index';", "expect(Object.keys(shop).sort()).toEqual(['double', 'sum']);"),
};

let repo: TempRepo;
const gate = () => presetGate(repo.dir, 'vitest', repo.env);

beforeAll(async () => {
  repo = makeRepo(library, { nodeModules: true });
  const full = await run(repo.dir, gate(), [], repo.env, true);
  expect(full.status, full.output).toBe('passed');
}, 60_000);
afterAll(() => repo.cleanup());

describe('vitest: tests chosen by what they executed on the last passing full run', () => {
  it('the full run leaves a record of what each test file executed', () => {
    const record = JSON.parse(readFileSync(join(stateOf(repo.dir, gate()).cacheDir, 'coverage-record.json'), 'utf8'));
    const math = join(repo.dir, 'src/math.ts');
    expect(record.tests[join(repo.dir, 'tests/double.test.ts')].loaded[math].called).toEqual(['double']);
    expect(record.tests[join(repo.dir, 'tests/sum.test.ts')].loaded[math].called).toEqual(['sum']);
    expect(record.tests[join(repo.dir, 'tests/exports.test.ts')].loaded[math].called).toEqual([]);
    expect(readdirSync(stateOf(repo.dir, gate()).cacheDir).filter((name) => name.startsWith('v8-coverage'))).toEqual([]);
  });

  it('a change inside one function runs only the test files that executed it', async () => {
    repo.write('src/math.ts', SUM.replace('a * 2', 'a + a'));
    const built = await build(repo.dir, gate(), ['src/math.ts']);
    expect(built.why).toMatch(/^3 of 3 test files reach src\/math\.ts \(tests\/exports\.test\.ts takes all of src\/index\.ts\); 1 of 3 test files: 1 executed double\(\) in src\/math\.ts \(coverage record of [\d-]+ [\d:]+ UTC\)$/);
    expect(built.argv).toContain('tests/double.test.ts');
    expect(built.argv.filter((word) => word.endsWith('.test.ts'))).toEqual(['tests/double.test.ts']);
  });

  it('a test file changed since the record runs: its record no longer holds', async () => {
    repo.write('src/math.ts', SUM.replace('a * 2', 'a + a'));
    repo.write('tests/sum.test.ts', test('sum adds', "import { double, sum } from '../src/index';", 'expect(sum(1, 2)).toBe(3);\n  expect(double(1)).toBe(2);'));
    const built = await build(repo.dir, gate(), ['src/math.ts']);
    expect(built.why).toMatch(/; 2 of 3 test files: 1 executed double\(\) in src\/math\.ts, 1 have no record of their own/);
    expect(built.argv.filter((word) => word.endsWith('.test.ts')).sort()).toEqual(['tests/double.test.ts', 'tests/sum.test.ts']);
    repo.write('tests/sum.test.ts', library['tests/sum.test.ts']);
  });

  it('a change outside function bodies (module level, a signature, a new function) runs what the import graph chose', async () => {
    for (const changed of [`${SUM}\nexport const RATE = 2;\n`, SUM.replace('double(a: number)', 'double(a: number, _b = 0)'), `${SUM}\nexport function half(a: number): number {\n  return a / 2;\n}\n`]) {
      repo.write('src/math.ts', changed);
      const built = await build(repo.dir, gate(), ['src/math.ts']);
      expect(built.why).toBe('3 of 3 test files reach src/math.ts (tests/exports.test.ts takes all of src/index.ts)');
    }
    repo.write('src/math.ts', SUM);
  });

  it('a record made under another test config, manifest or lockfile does not hold', async () => {
    repo.write('src/math.ts', SUM.replace('a * 2', 'a + a'));
    repo.write('package.json', library['package.json'].replace('"private": true', '"private": true,\n  "imports": { "#math": "./src/math.ts" }'));
    expect((await build(repo.dir, gate(), ['src/math.ts'])).why).toBe('3 of 3 test files reach src/math.ts (tests/exports.test.ts takes all of src/index.ts)');
    repo.write('package.json', library['package.json']);
    repo.write('src/math.ts', SUM);
  });
});

describe('vitest: a full run whose tests failed records the test files that passed', () => {
  it('keeps no record of the failed file, and one of every other', async () => {
    const failing = makeRepo({ ...library, 'tests/broken.test.ts': test('double is wrong here', "import { double } from '../src/index';", 'expect(double(2)).toBe(5);') }, { nodeModules: true });
    try {
      const ownGate = presetGate(failing.dir, 'vitest', failing.env);
      const full = await run(failing.dir, ownGate, [], failing.env, true);
      expect(full.status, full.output).toBe('failed');
      const record = JSON.parse(readFileSync(join(stateOf(failing.dir, ownGate).cacheDir, 'coverage-record.json'), 'utf8'));
      expect(record.tests[join(failing.dir, 'tests/double.test.ts')].loaded[join(failing.dir, 'src/math.ts')].called).toEqual(['double']);
      expect(record.tests[join(failing.dir, 'tests/broken.test.ts')]).toBeUndefined();
      // The failed file runs whenever what it reaches changes; the others as the record says.
      failing.write('src/math.ts', SUM.replace('a + b', 'b + a'));
      const built = await build(failing.dir, ownGate, ['src/math.ts']);
      expect(built.argv.filter((word) => word.endsWith('.test.ts')).sort()).toEqual(['tests/broken.test.ts', 'tests/sum.test.ts']);
    } finally {
      failing.cleanup();
    }
  }, 60_000);
});
