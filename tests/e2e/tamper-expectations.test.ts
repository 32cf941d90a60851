import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, stop } from '../helpers/run-bin.js';
import { describeTamperCases } from '../helpers/tamper-cases.js';
import { EXPECT_RUNNERS } from '../helpers/tamper-js-runners.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// vitest and jest (node:test and mocha, whose failure text is Node's, are in
// tamper-expectations-node-assert.test.ts; the Python, Go and Rust runners in
// tamper-expectations-native.test.ts).

describeTamperCases(EXPECT_RUNNERS);

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
