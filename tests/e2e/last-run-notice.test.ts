import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAILING_OTHER, SUM_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 26, point 7 (the human's half): each stop's notice states one decision, and the report kept
// for the human and `gate verdict` is what the last stop found.

let repo: TempRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

const systemMessage = (stdout: string): string => JSON.parse(stdout).systemMessage;
const vitestOn = (file: string): string[] => ['vitest', 'run', '--reporter=default', file];

describe("the human's notice", () => {
  it('says only that the stop was refused when other gates were red before the turn or gave no verdict', () => {
    const config = {
      gates: [
        { name: 'test', run: vitestOn('src/sum.test.ts'), filter: 'vitest', on: ['src/**'] },
        { name: 'other', run: vitestOn('src/other.test.ts'), filter: 'vitest', on: ['src/**'] },
        { name: 'lint', run: ['gate-no-such-linter'], on: ['src/**'] },
      ],
    };
    repo = makeRepo({ ...vitestProject(config), ...FAILING_OTHER }, { nodeModules: true });
    promptStart(repo);
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = stop(repo);
    expect(result.code).toBe(2);
    const notice = systemMessage(result.stdout);
    expect(notice).toMatch(/^gate: refused the stop \(block 1 of 3\): test failed; the agent has the report\./);
    expect(notice).toMatch(/other still failing, but only with failures from before this turn \(not blocking\)\./);
    expect(notice).toMatch(/no verdict from lint \(could not start/);
    expect(notice).not.toMatch(/allowed|let through/);
  });
});

describe('the report kept after a stop let through red', () => {
  const CALC_TEST = `import { expect, it } from 'vitest';
import { f } from './calc.js';

${[1, 2, 3, 4].map((n) => `it('maps ${n}', () => {\n  expect(f(${n})).toBe(${n});\n});\n`).join('\n')}`;

  it('is what the last stop found, not the last block', () => {
    repo = makeRepo({ ...vitestProject({ maxBlocks: 3, gates: [{ name: 'test', preset: 'vitest' }] }), 'src/calc.ts': 'export const f = (x: number): number => x;\n', 'src/calc.test.ts': CALC_TEST }, { nodeModules: true });
    promptStart(repo);
    const attempts = ['x - 1', 'x + 1', '-x', 'x <= 2 ? x : 0'];
    const codes: Array<number | null> = [];
    let last = { stdout: '' };
    for (const body of attempts) {
      repo.write('src/calc.ts', `export const f = (x: number): number => ${body};\n`);
      const result = stop(repo);
      codes.push(result.code);
      last = result;
    }
    expect(codes).toEqual([2, 2, 2, 0]);
    const notice = systemMessage(last.stdout);
    expect(notice).toMatch(/^gate: let the turn end after 3 blocked stops in a row; still failing: test\./);
    const report = readFileSync(join(repo.dir, '.git', 'gate', 'reports', 'session-1.txt'), 'utf8');
    expect(report.startsWith(notice)).toBe(true);
    expect(report).toContain('gate: 1 of 1 checks failed (test) at this stop, which was let through.');
    expect(report).not.toContain('stop refused, block 3 of 3');
    // The last stop's two failures, not the third block's four.
    expect(report).toMatch(/maps 3/);
    expect(report).toMatch(/maps 4/);
    expect(report).not.toMatch(/maps 1/);
    expect(report).not.toMatch(/maps 2/);
  });
});
