import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 29 point 4: a block in a row with exactly the failures of the report the agent was sent gets
// a reminder naming them and where the report is, not the same report again.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const test = (answer: number, name = 'knows the answer') =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { answer } from '../src/index.js';\ntest('${name}', () => assert.equal(answer, ${answer}));\n`;

function project(): TempRepo {
  const made = makeRepo({
    'gate.config.json': `${JSON.stringify({ maxBlocks: 5, gates: [{ name: 'test', run: ['node', '--test'], filter: 'node-test' }] })}\n`,
    'package.json': '{ "type": "module" }\n',
    'src/index.js': 'export const answer = 42;\n',
    'test/answer.test.js': test(42),
  });
  made.commit('initial');
  return made;
}

describe('the same failures at a block in a row', () => {
  it('get a reminder with the failures and the report file; new failures get a whole report; gate stats counts both', () => {
    repo = project();
    promptStart(repo);
    repo.write('src/index.js', 'export const answer = 41;\n');
    const first = stop(repo);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain('## test: failed (exit 1)');
    expect(first.stderr).toContain('41 !== 42');

    // The agent changes something, but not what fails.
    repo.write('src/index.js', 'export const answer = 41; // still\n');
    const second = stop(repo);
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(
      [
        'gate: 1 of 1 checks failed (test); stop refused, block 2 of 5.',
        'The same failures as at block 1, whose report you were sent then (it is also in .git/gate/reports/session-1.txt):',
        '- test: test/answer.test.js > knows the answer, line 4',
        '',
        'Fix the code so that these checks pass. Do not skip, delete or weaken tests or checks unless the user asked for it.',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(repo.dir, '.git/gate/reports/session-1.txt'), 'utf8')).toBe(first.stderr);

    // Another failure too: the whole report, with both.
    repo.write('test/more.test.js', test(7, 'knows seven'));
    const third = stop(repo);
    expect(third.code).toBe(2);
    expect(third.stderr).toContain('## test: failed (exit 1)');
    expect(third.stderr).toContain('knows seven');

    const records = readStopRecords(join(repo.dir, '.git', 'gate')).filter((record) => record.outcome === 'block');
    expect(records.map((record) => record.repeat ?? false)).toEqual([false, true, false]);
    const stats = runBin(['stats'], { cwd: repo.dir, env: repo.env });
    const chars = records.reduce((sum, record) => sum + record.reportChars, 0);
    expect(stats.stdout).toMatch(new RegExp(`^feedback: +session-1\\S* ${chars} chars in 3 blocks \\(1 a reminder of a report it had\\)$`, 'm'));
  });
});
