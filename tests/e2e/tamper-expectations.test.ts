import { afterEach, describe, expect, it } from 'vitest';
import { type BinResult, promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 16, point 1: a test that failed at a block and passes at the next stop because the agent
// edited the test instead of the code. Real runners; gate's own presets.

let repo: TempRepo;
afterEach(() => repo?.cleanup());

type Mode = 'warn' | 'block';

interface Runner {
  name: string;
  preset: string;
  /** The code file, its source given a body for `sum`. */
  code: string;
  source: (body: string) => string;
  testFile: string;
  /** The test file with `body` as the test's lines, named `title`. */
  test: (title: string, body: string[]) => string;
  /** Assertions in this runner's style. */
  equal: (actual: string, expected: string) => string;
  weak: (actual: string) => string;
  weakName: string;
  strongName: string;
  extra: Record<string, string>;
}

const cjs = (body: string) => `function sum(a, b) {\n  return ${body};\n}\nmodule.exports = { sum };\n`;
const esm = (body: string) => `export function sum(a, b) {\n  return ${body};\n}\n`;
const lines = (body: string[]) => body.map((line) => `    ${line}`).join('\n');

const RUNNERS: Runner[] = [
  {
    name: 'vitest',
    preset: 'vitest',
    code: 'src/sum.ts',
    source: (body) => `export function sum(a: number, b: number): number {\n  return ${body};\n}\n`,
    testFile: 'src/sum.test.ts',
    test: (title, body) => `import { describe, expect, it } from 'vitest';\nimport { sum } from './sum.js';\n\ndescribe('sum', () => {\n  it('${title}', () => {\n${lines(body)}\n  });\n});\n`,
    equal: (actual, expected) => `expect(${actual}).toBe(${expected});`,
    weak: (actual) => `expect(${actual}).toBeDefined();`,
    weakName: 'toBeDefined',
    strongName: 'toBe',
    extra: { 'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module' }) },
  },
  {
    name: 'jest',
    preset: 'jest',
    code: 'src/sum.js',
    source: cjs,
    testFile: 'src/sum.test.js',
    test: (title, body) => `const { sum } = require('./sum');\n\ndescribe('sum', () => {\n  test('${title}', () => {\n${lines(body)}\n  });\n});\n`,
    equal: (actual, expected) => `expect(${actual}).toBe(${expected});`,
    weak: (actual) => `expect(${actual}).toBeTruthy();`,
    weakName: 'toBeTruthy',
    strongName: 'toBe',
    extra: { 'package.json': JSON.stringify({ name: 'fixture', private: true, jest: { testEnvironment: 'node' } }) },
  },
  {
    name: 'node:test',
    preset: 'node-test',
    code: 'src/sum.js',
    source: esm,
    testFile: 'src/sum.test.js',
    test: (title, body) => `import assert from 'node:assert/strict';\nimport { describe, it } from 'node:test';\nimport { sum } from './sum.js';\n\ndescribe('sum', () => {\n  it('${title}', () => {\n${lines(body)}\n  });\n});\n`,
    equal: (actual, expected) => `assert.strictEqual(${actual}, ${expected});`,
    weak: (actual) => `assert.ok(${actual});`,
    weakName: 'ok',
    strongName: 'strictEqual',
    extra: { 'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module' }) },
  },
  {
    name: 'mocha',
    preset: 'mocha',
    code: 'lib/sum.js',
    source: cjs,
    testFile: 'test/sum.spec.js',
    test: (title, body) => `const assert = require('node:assert');\nconst { sum } = require('../lib/sum');\n\ndescribe('sum', () => {\n  it('${title}', () => {\n${lines(body)}\n  });\n});\n`,
    equal: (actual, expected) => `assert.strictEqual(${actual}, ${expected});`,
    weak: (actual) => `assert.ok(${actual});`,
    weakName: 'ok',
    strongName: 'strictEqual',
    extra: { 'package.json': JSON.stringify({ name: 'fixture', private: true }) },
  },
];

// The test file's lines 1..N up to the test's body: the body starts on the line after `it(`.
const bodyStart = (runner: Runner) => runner.test('T', ['@@']).split('\n').indexOf('    @@') + 1;

function project(runner: Runner, mode: Mode): Record<string, string> {
  return {
    '.gitignore': 'node_modules\n',
    'gate.config.json': `${JSON.stringify({ tamper: mode, gates: [{ name: 'test', preset: runner.preset }] }, null, 2)}\n`,
    [runner.code]: runner.source('a + b'),
    [runner.testFile]: runner.test('adds', body(runner)),
    ...runner.extra,
  };
}

function body(runner: Runner, last = runner.equal('result', '5')): string[] {
  return ['const result = sum(2, 3);', runner.equal('typeof result', "'number'"), last];
}

const output = (result: BinResult) => `${result.stdout}\n${result.stderr}`;

/** Green at the start; the code broken (2 * 3 = 6, not 5); the stop blocked. */
function breakAndBlock(runner: Runner, mode: Mode): void {
  repo = makeRepo(project(runner, mode), { nodeModules: true });
  expect(promptStart(repo).code).toBe(0);
  repo.write(runner.code, runner.source('a * b'));
  const blocked = stop(repo);
  expect(blocked.code, output(blocked)).toBe(2);
}

function expectNamed(result: BinResult, mode: Mode, line: string): void {
  if (mode === 'block') {
    expect(result.code, output(result)).toBe(2);
    expect(result.stderr).toContain(line);
  } else {
    expect(result.code, output(result)).toBe(0);
    expect(JSON.parse(result.stdout).systemMessage).toContain(line);
  }
}

describe.each(RUNNERS)('a test edited to pass instead of the code ($name)', (runner) => {
  const at = (offset: number) => `${runner.testFile}:${bodyStart(runner) + offset}`;

  it('names an expectation rewritten to the value the code returned (tamper "warn")', () => {
    breakAndBlock(runner, 'warn');
    repo.write(runner.testFile, runner.test('adds', body(runner, runner.equal('result', '6'))));
    expectNamed(stop(repo), 'warn', `${at(2)}: expectation changed to the value the code returned (6)`);
  });

  it('names a weakened matcher (tamper "block")', () => {
    breakAndBlock(runner, 'block');
    repo.write(runner.testFile, runner.test('adds', body(runner, runner.weak('result'))));
    expectNamed(stop(repo), 'block', `${at(2)}: matcher weakened (${runner.strongName} → ${runner.weakName})`);
  });

  it('names a deleted assertion (tamper "warn")', () => {
    breakAndBlock(runner, 'warn');
    repo.write(runner.testFile, runner.test('adds', body(runner).slice(0, 2)));
    expectNamed(stop(repo), 'warn', `${at(-1)}: assertion deleted`);
  });

  it('names an emptied test body (tamper "block")', () => {
    breakAndBlock(runner, 'block');
    repo.write(runner.testFile, runner.test('adds', ['// TODO']));
    expectNamed(stop(repo), 'block', `${at(-1)}: test body emptied`);
  });

  it('names a return at the top of the test (tamper "warn")', () => {
    breakAndBlock(runner, 'warn');
    repo.write(runner.testFile, runner.test('adds', ['return;', ...body(runner)]));
    expectNamed(stop(repo), 'warn', `${at(0)}: returns at the top of the test, before its assertions`);
  });

  it('says nothing when the expectation changed along with the code before any block', () => {
    repo = makeRepo(project(runner, 'block'), { nodeModules: true });
    promptStart(repo);
    repo.write(runner.code, runner.source('a * b'));
    repo.write(runner.testFile, runner.test('adds', body(runner, runner.equal('result', '6'))));
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('says nothing about a new test added with the fix', () => {
    breakAndBlock(runner, 'block');
    repo.write(runner.code, runner.source('a + b'));
    const withNew = runner.test('adds', body(runner)).replace(/\n\}\);\n$/, `\n  it('adds zeros', () => {\n    ${runner.equal('sum(0, 0)', '0')}\n  });\n});\n`);
    repo.write(runner.testFile, withNew);
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('says nothing about a test renamed with the fix', () => {
    breakAndBlock(runner, 'block');
    repo.write(runner.code, runner.source('a + b'));
    repo.write(runner.testFile, runner.test('adds two numbers', body(runner)));
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
