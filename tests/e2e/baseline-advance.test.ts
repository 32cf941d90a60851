import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin, stop } from '../helpers/run-bin.js';
import { SUM_OK, SUM_TEST, vitestProject } from '../helpers/fixtures.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 26, point 6: with no turn-start record the baseline is the last tree that passed, so every
// passing stop (and every passing `gate check`) must move it on, or an old change is found forever.

let repo: TempRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

const passedDigest = (r: TempRepo): string => JSON.parse(readFileSync(join(r.dir, '.git', 'gate', 'passed.json'), 'utf8')).snapshot.digest;
const statusJson = (r: TempRepo): { changedFiles: string[] } => JSON.parse(runBin(['status', '--json'], { cwd: r.dir, env: r.env }).stdout);
const notice = (stdout: string): string => (stdout === '' ? '' : JSON.parse(stdout).systemMessage);
const withExtraTest = (): Record<string, string> => ({ ...vitestProject(), 'src/extra.test.ts': SUM_TEST.replace('adds two numbers', 'adds again') });

describe('the last tree that passed, by a narrowed run', () => {
  it('is no proof that the tests the run left out pass there: their old failures stay old', () => {
    const OLD = "export const rate = (): number => 2;\n";
    repo = makeRepo(
      {
        ...vitestProject(),
        'src/rate.ts': OLD,
        // Failing before any turn, and reached by no change to sum.ts.
        'src/rate.test.ts': "import { expect, it } from 'vitest';\nimport { rate } from './rate.js';\n\nit('rate is three', () => {\n  expect(rate()).toBe(3);\n});\n",
      },
      { nodeModules: true },
    );
    // No turn start: the change is measured from HEAD; the run is sum's test alone, and passes.
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '' });
    expect(JSON.parse(readFileSync(join(repo.dir, '.git', 'gate', 'passed.json'), 'utf8')).unsure).toEqual(['test']);
    // Now the change reaches rate.test.ts, which fails as it did at HEAD: measured from the tree
    // that passed, whose run never ran it, the failure is still an old one.
    repo.write('src/rate.ts', `${OLD}export const unit = 'per hour';\n`);
    const next = stop(repo);
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
    expect(notice(next.stdout)).toMatch(/only with failures from before this turn/);
    // A failure of its own is still new.
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'a - b'));
    const broken = stop(repo);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('adds two numbers');
  });
});

describe('the last tree that passed', () => {
  it('is replaced by a later passing stop whose change deletes a test file, so the deletion is told once', () => {
    repo = makeRepo(withExtraTest(), { nodeModules: true });
    // Tree A: an edit, no turn start: the stop runs the gate from HEAD and it passes.
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '' });
    const treeA = passedDigest(repo);

    // Tree B: the test file deleted and everything committed.
    repo.remove('src/extra.test.ts');
    repo.commit('drop the extra test');
    const atB = stop(repo);
    expect(atB.code).toBe(0);
    expect(notice(atB.stdout)).toMatch(/src\/extra\.test\.ts: deletes the test file/);
    expect(passedDigest(repo)).not.toBe(treeA);

    // Nothing changed since B: nothing to tell, nothing listed as changed.
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '' });
    expect(stop(repo, 'session-2')).toMatchObject({ code: 0, stdout: '' });
    expect(statusJson(repo).changedFiles).toEqual([]);
  });

  it('moves on past a change no gate looks at, but only from the last tree that passed', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('docs/guide.md', '# Guide\n\nFirst words.\n');
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '' });
    // From HEAD nothing ran: nothing is known to pass.
    expect(() => passedDigest(repo as TempRepo)).toThrow();
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '' });
    const treeA = passedDigest(repo);
    repo.write('docs/guide.md', '# Guide\n\nOther words.\n');
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '' });
    expect(passedDigest(repo)).not.toBe(treeA);
    expect(statusJson(repo).changedFiles).toEqual([]);
  });

  it('is replaced by a passing gate check of what changed', () => {
    repo = makeRepo(vitestProject({ gates: [{ name: 'test', preset: 'vitest' }, { name: 'docs', run: ['true'], on: ['docs/**'] }] }), { nodeModules: true });
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    expect(stop(repo)).toMatchObject({ code: 0, stdout: '' });
    const treeA = passedDigest(repo);
    repo.write('src/sum.ts', SUM_OK.replace('a + b', '(b + a)'));
    const check = runBin(['check'], { cwd: repo.dir, env: repo.env });
    expect(check.code).toBe(0);
    expect(passedDigest(repo)).not.toBe(treeA);
    expect(statusJson(repo).changedFiles).toEqual([]);
  });
});
