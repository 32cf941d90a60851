/** A small TypeScript project with vitest: the shape of repo an agent usually works in. */
export function vitestProject(config: object = { gates: [{ name: 'test', preset: 'vitest' }] }): Record<string, string> {
  return {
    '.gitignore': 'node_modules\n',
    'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module', devDependencies: { vitest: '4.1.12', typescript: '5.9.3' } }, null, 2),
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, target: 'ES2022', types: [] }, include: ['src'] }, null, 2),
    'gate.config.json': `${JSON.stringify(config, null, 2)}\n`,
    'README.md': '# fixture\n',
    'docs/guide.md': '# Guide\n',
    'src/sum.ts': SUM_OK,
    'src/sum.test.ts': SUM_TEST,
  };
}

export const SUM_OK = 'export function sum(a: number, b: number): number {\n  return a + b;\n}\n';
export const SUM_BROKEN = 'export function sum(a: number, b: number): number {\n  return a - b;\n}\n';
export const SUM_STILL_BROKEN = 'export function sum(a: number, b: number): number {\n  return a * b;\n}\n';
export const SUM_TEST = `import { describe, expect, it } from 'vitest';
import { sum } from './sum.js';

describe('sum', () => {
  it('adds two numbers', () => {
    expect(sum(1, 2)).toBe(3);
  });
});
`;

/**
 * A test gate that fails while src/sum.ts subtracts (green with SUM_OK, red with SUM_BROKEN), with
 * no test runner's start-up or baseline run: for the tests whose point is not the runner.
 */
export const SUM_CHECK_GATE = { name: 'test', run: ['node', '-e', "process.exit(require('node:fs').readFileSync('src/sum.ts', 'utf8').includes('a - b') ? 1 : 0)"] };

/** A test file (and its code) that fails: in a repo's commit, a failure from before any turn. */
export const FAILING_OTHER = {
  'src/other.ts': 'export const answer = (): number => 41;\n',
  'src/other.test.ts': "import { expect, it } from 'vitest';\nimport { answer } from './other.js';\n\nit('knows the answer', () => {\n  expect(answer()).toBe(42);\n});\n",
};
