import type { TamperRunner, TestCase } from './tamper-cases.js';

// The JavaScript runners of the tamper cases (tests/helpers/tamper-cases.ts). Split by where their
// failure text comes from: vitest and jest print their own expect's, which does not change with
// Node's major; node:test and mocha (with node:assert) print Node's, so their file runs in the Node
// matrix (scripts/test-node-matrix.mjs).

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

const ALL: TamperRunner[] = [
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

const named = (...names: string[]): TamperRunner[] => ALL.filter((runner) => names.includes(runner.name));

/** Runners whose failure text is their own expect's. */
export const EXPECT_RUNNERS = named('vitest', 'jest');
/** Runners whose failure text is node:assert's, and node:test's reporter: Node's own. */
export const NODE_ASSERT_RUNNERS = named('node:test', 'mocha');
