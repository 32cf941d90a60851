import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, stop } from '../helpers/run-bin.js';
import { describeTamperCases, type TamperRunner, type TestCase } from '../helpers/tamper-cases.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// The JavaScript runners (the Python, Go and Rust ones are in tamper-expectations-native.test.ts).

const cjs = (body: string) => `function sum(a, b) {\n  return ${body};\n}\nmodule.exports = { sum };\n`;
const esm = (body: string) => `export function sum(a, b) {\n  return ${body};\n}\n`;

/** `head`, then a describe('sum') holding an `it`/`test` per case. */
const jsTests = (head: string, call: 'it' | 'test') => (cases: TestCase[]) =>
  `${head}\ndescribe('sum', () => {\n${cases.map(({ title, body }) => `  ${call}('${title}', () => {\n${body.map((line) => `    ${line}`).join('\n')}\n  });\n`).join('')}});\n`;

const shared = {
  bind: 'const result = sum(2, 3);',
  empty: ['// TODO'],
  earlyReturn: 'return;',
  nodeModules: true,
};
const expectStyle = { ...shared, typeCheck: "expect(typeof result).toBe('number');", equal: (value: string) => `expect(result).toBe(${value});`, strongName: 'toBe' };
const assertStyle = {
  ...shared,
  typeCheck: "assert.strictEqual(typeof result, 'number');",
  equal: (value: string) => `assert.strictEqual(result, ${value});`,
  weak: 'assert.ok(result);',
  strongName: 'strictEqual',
  weakName: 'ok',
};

const RUNNERS: TamperRunner[] = [
  {
    ...expectStyle,
    name: 'vitest',
    preset: 'vitest',
    code: 'src/sum.ts',
    source: (body) => `export function sum(a: number, b: number): number {\n  return ${body};\n}\n`,
    testFile: 'src/sum.test.ts',
    tests: jsTests("import { describe, expect, it } from 'vitest';\nimport { sum } from './sum.js';\n", 'it'),
    weak: 'expect(result).toBeDefined();',
    weakName: 'toBeDefined',
    extra: { 'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module' }), '.gitignore': 'node_modules\n' },
  },
  {
    ...expectStyle,
    name: 'jest',
    preset: 'jest',
    code: 'src/sum.js',
    source: cjs,
    testFile: 'src/sum.test.js',
    tests: jsTests("const { sum } = require('./sum');\n", 'test'),
    weak: 'expect(result).toBeTruthy();',
    weakName: 'toBeTruthy',
    extra: { 'package.json': JSON.stringify({ name: 'fixture', private: true, jest: { testEnvironment: 'node' } }), '.gitignore': 'node_modules\n' },
  },
  {
    ...assertStyle,
    name: 'node:test',
    preset: 'node-test',
    code: 'src/sum.js',
    source: esm,
    testFile: 'src/sum.test.js',
    tests: jsTests("import assert from 'node:assert/strict';\nimport { describe, it } from 'node:test';\nimport { sum } from './sum.js';\n", 'it'),
    extra: { 'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module' }), '.gitignore': 'node_modules\n' },
  },
  {
    ...assertStyle,
    name: 'mocha',
    preset: 'mocha',
    code: 'lib/sum.js',
    source: cjs,
    testFile: 'test/sum.spec.js',
    tests: jsTests("const assert = require('node:assert');\nconst { sum } = require('../lib/sum');\n", 'it'),
    extra: { 'package.json': JSON.stringify({ name: 'fixture', private: true }), '.gitignore': 'node_modules\n' },
  },
];

describeTamperCases(RUNNERS);

// Issue 38, point 2 (radashi): an array expectation rewritten to what the failing run received; and
// a test the turn wrote itself, corrected, which is not tampering.
describe('vitest: arrays, and the tests the turn wrote', () => {
  const unique = (body: string) => `export function unique(items: number[]): number[] {\n  return ${body};\n}\n`;
  const uniqueTest = (expected: string) =>
    `import { expect, test } from 'vitest';\nimport { unique } from '../src/unique.js';\n\ntest('removes duplicates', () => {\n  expect(unique([1, 2, 1])).toEqual(${expected});\n});\n`;
  let repo: TempRepo | undefined;
  afterEach(() => repo?.cleanup());

  function start(): TempRepo {
    const made = makeRepo(
      {
        'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', preset: 'vitest' }] }, null, 2)}\n`,
        'src/unique.ts': unique('[...new Set(items)]'),
        'tests/unique.test.ts': uniqueTest('[1, 2]'),
        'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module' }),
        '.gitignore': 'node_modules\n',
      },
      { nodeModules: true },
    );
    expect(promptStart(made).code).toBe(0);
    return made;
  }

  it('names toEqual([1, 2]) rewritten to the received [ 2, 1 ]', () => {
    repo = start();
    repo.write('src/unique.ts', unique('[...new Set(items)].reverse()'));
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('expected [ 2, 1 ] to deeply equal [ 1, 2 ]');
    repo.write('tests/unique.test.ts', uniqueTest('[2, 1]'));
    const allowed = stop(repo);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout).systemMessage).toContain('tests/unique.test.ts:5: expectation changed to the value the code returned ([ 2, 1 ])');
  });

  it('says nothing when the tests the turn wrote (a new file, a new test in an old one) are corrected to what the code returns', () => {
    repo = start();
    const newTest = (expected: number) => `\ntest('drops the repeats', () => {\n  expect(unique([3, 1, 3]).length).toBe(${expected});\n});\n`;
    const newFile = (expected: number) =>
      `import { expect, test } from 'vitest';\nimport { unique } from '../src/unique.js';\n\ntest('keeps the order', () => {\n  expect(unique([1, 2, 1])[0]).toBe(${expected});\n});\n`;
    repo.write('tests/unique.test.ts', uniqueTest('[1, 2]') + newTest(3));
    repo.write('tests/order.test.ts', newFile(2));
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('drops the repeats');
    expect(blocked.stderr).toContain('keeps the order');
    repo.write('tests/unique.test.ts', uniqueTest('[1, 2]') + newTest(2));
    repo.write('tests/order.test.ts', newFile(1));
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
