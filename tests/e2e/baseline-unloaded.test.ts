import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 31 point 2: a baseline run that could not load a suite (floating-ui: vite refused the setup
// file of a copy under .git/) is no evidence that the tests in it passed before: the failures count
// as new, and the human is told why. Real vitest.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

describe('a suite the baseline run could not load', () => {
  it('counts the turn\'s failures in it as new and says the baseline could not load it', () => {
    repo = makeRepo(
      {
        'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', preset: 'vitest' }] })}\n`,
        'package.json': '{ "type": "module", "devDependencies": { "vitest": "4.1.12" } }\n',
        'src/index.js': 'export const one = 1;\n',
        // Red at the start, and not as a test: its helper does not exist yet, so the file cannot load.
        'test/total.test.js': "import { expect, test } from 'vitest';\nimport { total } from '../src/total.js';\n\ntest('adds', () => {\n  expect(total([1, 2])).toBe(3);\n});\n",
      },
      { nodeModules: true },
    );
    promptStart(repo);
    repo.write('src/total.js', 'export const total = (values) => values.reduce((sum, value) => sum + value, 1);\n');
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected 4 to be 3');
    expect(`${result.stdout}\n${result.stderr}`).toContain('could not load test/total.test.js, so it never ran the tests that fail there now');
  });
});
