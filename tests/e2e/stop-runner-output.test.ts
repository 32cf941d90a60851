import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAILING_OTHER, SUM_BROKEN, SUM_OK, vitestProject } from '../helpers/fixtures.js';
import { promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// What a stop makes of the test runner's output: the related tests, failures from before the turn,
// a flaky test, a tamper finding beside the failures. gate's judgement of vitest's text, which does
// not change with Node's major (its pure parts are unit-tested under every Node): left to the Node
// of npm test, while stop.test.ts, the stop contract through the built bin, runs under each.

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const logOf = (r: TempRepo) => join(r.dir, '.git', 'gate', 'logs', 'test.log');
const systemMessage = (stdout: string): string => JSON.parse(stdout).systemMessage;

describe('the fast test tier: only the tests related to the change', () => {
  const project = () => ({
    ...vitestProject(),
    ...FAILING_OTHER,
  });

  it('runs the tests related to a changed source file, not an unrelated red one', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const log = readFileSync(logOf(repo), 'utf8');
    expect(log).toContain('sum.test.ts');
    expect(log).not.toContain('other.test.ts');
  });

  it('runs the full suite when a runner config changed (where the red test was already red: not blocking)', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('vitest.config.ts', "import { defineConfig } from 'vitest/config';\nexport default defineConfig({});\n");
    const result = stop(repo);
    expect(readFileSync(logOf(repo), 'utf8')).toContain('knows the answer');
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/test still failing, but only with failures from before this turn/);
  });
});

describe('failures from before the turn', () => {
  const redProject = () => ({
    ...vitestProject({ gates: [{ name: 'test', preset: 'vitest', related: false }] }),
    ...FAILING_OTHER,
  });

  it('an already-red repo with an unrelated edit does not block; the human is told it is still red', () => {
    repo = makeRepo(redProject(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/extra.ts', 'export const extra = 1;\n');
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/test still failing, but only with failures from before this turn/);
  });

  it('a new failure in an already-red repo blocks, and the old one is named as pre-existing', () => {
    repo = makeRepo(redProject(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected -1 to be 3');
    expect(result.stderr).toMatch(/Already failing before this turn \(not caused by this change\): src\/other\.test\.ts > knows the answer\./);
  });

  it('reads the new failure first and whole, the old one only as one line after it, with the budget nearly full', () => {
    repo = makeRepo({ ...redProject(), ...vitestProject({ budget: 1000, gates: [{ name: 'test', preset: 'vitest', related: false }] }) }, { nodeModules: true });
    promptStart(repo);
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = stop(repo);
    expect(result.code).toBe(2);
    const report = result.stderr;
    expect(report.length).toBeLessThanOrEqual(1001);
    expect(report).toContain('expected -1 to be 3');
    expect(report).toContain('src/sum.test.ts:');
    // Vitest prints other.test.ts first; its diff and location are not the agent's to read.
    expect(report).not.toContain('expected 41 to be 42');
    expect(report).not.toContain('src/other.test.ts:5');
    expect(report.indexOf('expected -1 to be 3')).toBeLessThan(report.indexOf('Already failing before this turn'));
  });
});

describe('flaky tests', () => {
  it('a gate that fails once and then passes on retry does not block, and the human is told which test flaked', () => {
    const flaky = "import { expect, it } from 'vitest';\nimport { existsSync, writeFileSync } from 'node:fs';\n\nit('sometimes fails', () => {\n  const first = !existsSync('.flaked');\n  writeFileSync('.flaked', '');\n  expect(first).toBe(false);\n});\n";
    repo = makeRepo({ ...vitestProject({ gates: [{ name: 'test', preset: 'vitest', retries: 2 }] }), '.gitignore': 'node_modules\n.flaked\n' }, { nodeModules: true });
    promptStart(repo);
    repo.write('src/flaky.test.ts', flaky);
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/flaky — test failed, then passed on run 2: src\/flaky\.test\.ts > sometimes fails/);
  });
});

describe('tamper guard', () => {
  const twoTests = `import { describe, expect, it } from 'vitest';
import { sum } from './sum.js';

describe('sum', () => {
  it('adds two numbers', () => {
    expect(sum(1, 2)).toBe(3);
  });
  it('adds zero', () => {
    expect(sum(2, 0)).toBe(2);
  });
});
`;

  it('a skip added to a failing test is named in the report next to the failures', () => {
    repo = makeRepo({ ...vitestProject(), 'src/sum.test.ts': twoTests }, { nodeModules: true });
    promptStart(repo);
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'a * b'));
    repo.write('src/sum.test.ts', twoTests.replace("it('adds two numbers'", "it.skip('adds two numbers'"));
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('adds zero');
    expect(result.stderr).toMatch(/## tamper check: this change skips, deletes or weakens tests or checks\nUndo these unless the user asked for them:\nsrc\/sum\.test\.ts:5: .*skip/);
  });

  it('deleting a failing test file: told to the human when the gates pass ("warn"), a block with "block"', () => {
    const gates = [{ name: 'test', preset: 'vitest', related: false }];
    // A new repository each time: the passing stop that told the human is the last pass.
    const deleteTheTest = (configNow?: object): ReturnType<typeof stop> => {
      repo?.cleanup();
      repo = makeRepo(vitestProject({ gates }), { nodeModules: true });
      repo.write('src/other.test.ts', "import { expect, it } from 'vitest';\n\nit('still passes', () => {\n  expect(1).toBe(1);\n});\n");
      repo.commit('another test');
      promptStart(repo);
      repo.write('src/sum.ts', SUM_BROKEN);
      repo.remove('src/sum.test.ts');
      if (configNow) repo.write('gate.config.json', JSON.stringify(configNow));
      return stop(repo);
    };
    const warned = deleteTheTest();
    expect(warned.code).toBe(0);
    expect(systemMessage(warned.stdout)).toMatch(/skips, deletes or weakens tests or checks:\nsrc\/sum\.test\.ts: .*delete/);

    const blocked = deleteTheTest({ tamper: 'block', gates });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/^gate: stop refused, block 1 of 3\./);
    expect(blocked.stderr).toMatch(/src\/sum\.test\.ts: .*delete/);
    expect(blocked.stderr).toMatch(/gate\.config\.json: .*tamper/);
  });
});
