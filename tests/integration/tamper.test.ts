import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRepo } from '../../src/git/find-repo.js';
import { committedPaths } from '../../src/snapshot/committed-paths.js';
import { changedPaths, type Snapshot } from '../../src/snapshot/snapshot.js';
import { takeSnapshot } from '../../src/snapshot/take-snapshot.js';
import { findTampering, MAX_PATHS } from '../../src/tamper/find-tampering.js';
import { findRewrittenExpectations, type GateRun, rememberFailingTests } from '../../src/tamper/rewritten-expectations.js';
import { startScan } from '../../src/tamper/start-scan.js';
import type { TamperScan } from '../../src/tamper/tamper-finding.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

// execGit spawns git with the process environment; point it at the repo's hermetic config.
async function withRepoEnv<T>(fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, repo.env);
  try {
    return await fn();
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/** The stop's view: the turn started at `base`; what changed since, and what tampering is in it. */
async function scanSince(base: Snapshot): Promise<TamperScan> {
  return withRepoEnv(async () => {
    const found = findRepo(repo.dir);
    if (!found) throw new Error('no repo');
    const now = (await takeSnapshot(found)).snapshot;
    const committed = base.head === now.head ? [] : await committedPaths(found, base.head, now.head);
    return findTampering(found.root, base.head, changedPaths(base, now, committed).paths);
  });
}

async function turnStart(): Promise<Snapshot> {
  return withRepoEnv(async () => (await takeSnapshot(findRepo(repo.dir)!)).snapshot);
}

const SUM_TEST = [
  "import { expect, it } from 'vitest';",
  "import { sum } from './sum';",
  '',
  "it('adds', () => {",
  '  expect(sum(1, 2)).toBe(3);',
  '});',
  '',
  "it('adds negatives', () => {",
  '  expect(sum(-1, -2)).toBe(-3);',
  '});',
  '',
].join('\n');

const PACKAGE = `${JSON.stringify({ name: 'demo', private: true, scripts: { test: 'vitest run', lint: 'eslint .' } }, null, 2)}\n`;

describe('tamper guard in a real repository', () => {
  it('finds a skip added to a failing test, with its line', async () => {
    repo = makeRepo({ 'src/sum.ts': 'export const sum = (a: number, b: number) => a - b;\n', 'src/sum.test.ts': SUM_TEST });
    const base = await turnStart();
    repo.write('src/sum.test.ts', SUM_TEST.replace("it('adds negatives'", "it.skip('adds negatives'"));
    expect(await scanSince(base)).toEqual({
      findings: [{ path: 'src/sum.test.ts', line: 8, kind: 'skip', detail: 'adds it.skip(' }],
      incomplete: undefined,
    });
  });

  it('finds a deleted test file and an emptied one', async () => {
    repo = makeRepo({ 'src/sum.test.ts': SUM_TEST, 'tests/test_sum.py': 'def test_sum():\n    assert 1 + 1 == 3\n', 'src/sum.ts': 'x' });
    const base = await turnStart();
    repo.remove('src/sum.test.ts');
    repo.write('tests/test_sum.py', 'import pytest\n');
    expect((await scanSince(base)).findings).toEqual([
      { path: 'src/sum.test.ts', kind: 'deleted-test', detail: 'deletes the test file' },
      { path: 'tests/test_sum.py', kind: 'emptied-test', detail: 'removes every test from the file' },
    ]);
  });

  it('finds --passWithNoTests in the test script, an eslint-disable and an edit to gate.config.json', async () => {
    const config = `${JSON.stringify({ maxBlocks: 3, gates: [{ name: 'test', preset: 'vitest' }, { name: 'lint', preset: 'eslint' }] }, null, 2)}\n`;
    repo = makeRepo({ 'package.json': PACKAGE, 'src/sum.ts': 'export const sum = (a: any, b: any) => a + b;\n', 'gate.config.json': config });
    const base = await turnStart();
    repo.write('package.json', PACKAGE.replace('"vitest run"', '"vitest run --passWithNoTests"'));
    repo.write('src/sum.ts', '// eslint-disable-next-line @typescript-eslint/no-explicit-any\nexport const sum = (a: any, b: any) => a + b;\n');
    repo.write('gate.config.json', `${JSON.stringify({ maxBlocks: 20, gates: [{ name: 'test', preset: 'vitest' }] }, null, 2)}\n`);
    expect((await scanSince(base)).findings).toEqual([
      { path: 'gate.config.json', kind: 'gate-config', detail: 'changes gate.config.json: removes the gate "lint", raises maxBlocks from 3 to 20' },
      { path: 'package.json', line: 5, kind: 'weakened-check', detail: 'adds --passWithNoTests' },
      { path: 'src/sum.ts', line: 1, kind: 'weakened-check', detail: 'adds an eslint-disable comment' },
    ]);
  });

  it('reads an untracked new test file whole and finds its .only', async () => {
    repo = makeRepo({ 'src/sum.ts': 'x' });
    const base = await turnStart();
    repo.write('src/new.test.ts', "import { it } from 'vitest';\n\nit.only('focus', () => {});\n");
    expect((await scanSince(base)).findings).toEqual([{ path: 'src/new.test.ts', line: 3, kind: 'only', detail: 'adds it.only(' }]);
  });

  it('finds nothing in an ordinary source edit, or in a test file moved with git mv', async () => {
    repo = makeRepo({ 'src/sum.ts': 'export const sum = (a: number, b: number) => a - b;\n', 'src/sum.test.ts': SUM_TEST.replace("it('adds'", "it.skip('adds'") });
    const base = await turnStart();
    repo.write('src/sum.ts', 'export const sum = (a: number, b: number) => a + b;\n');
    repo.git('mv', 'src/sum.test.ts', 'src/math.test.ts');
    repo.write('src/extra.test.ts', "it('works', () => {});\n");
    expect(await scanSince(base)).toEqual({ findings: [], incomplete: undefined });
  });

  it('treats a test file moved by hand (untracked copy, tracked original gone) as a move', async () => {
    repo = makeRepo({ 'src/sum.test.ts': SUM_TEST.replace("it('adds'", "it.skip('adds'") });
    const base = await turnStart();
    repo.write('test/sum.test.ts', SUM_TEST.replace("it('adds'", "it.skip('adds'"));
    repo.remove('src/sum.test.ts');
    expect(await scanSince(base)).toEqual({ findings: [], incomplete: undefined });
  });

  it('reads a file untracked with git rm --cached whole', async () => {
    repo = makeRepo({ 'src/sum.test.ts': SUM_TEST });
    const base = await turnStart();
    repo.git('rm', '-q', '--cached', 'src/sum.test.ts');
    repo.write('src/sum.test.ts', `${SUM_TEST}it.only('new', () => {});\n`);
    expect((await scanSince(base)).findings).toEqual([{ path: 'src/sum.test.ts', line: 11, kind: 'only', detail: 'adds it.only(' }]);
  });

  it('works in a repository without commits: every changed file is new', async () => {
    repo = makeRepo({ 'src/sum.ts': 'x' }, { commit: false });
    const base = await turnStart();
    expect(base.head).toBeNull();
    repo.write('src/sum.test.ts', "it('a', () => {});\nit.todo('b');\n");
    repo.write('src/sum.ts', '/* eslint-disable */\n');
    expect(await scanSince(base)).toEqual({
      findings: [
        { path: 'src/sum.test.ts', line: 2, kind: 'todo', detail: 'adds it.todo(' },
        { path: 'src/sum.ts', line: 1, kind: 'weakened-check', detail: 'adds an eslint-disable comment' },
      ],
      incomplete: undefined,
    });
  });

  it('still finds a skip the agent committed, and one only staged', async () => {
    repo = makeRepo({ 'src/sum.test.ts': SUM_TEST, 'pkg/sum_test.go': 'package pkg\n\nfunc TestSum(t *testing.T) {\n}\n' });
    const base = await turnStart();
    repo.write('src/sum.test.ts', SUM_TEST.replace("it('adds',", "it.skip('adds',"));
    repo.commit('skip it');
    repo.write('pkg/sum_test.go', 'package pkg\n\nfunc TestSum(t *testing.T) {\n\tt.Skip("later")\n}\n');
    repo.git('add', 'pkg/sum_test.go');
    expect((await scanSince(base)).findings).toEqual([
      { path: 'pkg/sum_test.go', line: 4, kind: 'skip', detail: 'adds t.Skip(' },
      { path: 'src/sum.test.ts', line: 4, kind: 'skip', detail: 'adds it.skip(' },
    ]);
  });

  it('handles paths with spaces, quotes and non-ASCII, and a user config that would change the diff', async () => {
    repo = makeRepo({ 'tests/été "x".test.ts': SUM_TEST, 'tests/a b.test.ts': SUM_TEST, '[x]*.test.ts': SUM_TEST });
    for (const [key, value] of [['diff.noprefix', 'true'], ['diff.mnemonicPrefix', 'true'], ['color.ui', 'always'], ['diff.renames', 'copies'], ['diff.context', '7'], ['core.quotePath', 'true'], ['diff.external', 'false']]) {
      repo.git('config', key ?? '', value ?? '');
    }
    const base = await turnStart();
    for (const path of ['tests/été "x".test.ts', 'tests/a b.test.ts', '[x]*.test.ts']) repo.write(path, SUM_TEST.replace("it('adds',", "xit('adds',"));
    expect((await scanSince(base)).findings.map((finding) => `${finding.path}:${finding.line} ${finding.detail}`)).toEqual([
      '[x]*.test.ts:4 adds xit(',
      'tests/a b.test.ts:4 adds xit(',
      'tests/été "x".test.ts:4 adds xit(',
    ]);
  });

  it('reads a scan the hook started early for the same change, and ignores one started for another', async () => {
    repo = makeRepo({ 'src/sum.test.ts': SUM_TEST, 'src/other.test.ts': SUM_TEST });
    const base = await turnStart();
    repo.write('src/sum.test.ts', SUM_TEST.replace("it('adds',", "it.skip('adds',"));
    repo.write('src/other.test.ts', SUM_TEST.replace("it('adds',", "it.only('adds',"));
    const expected = await scanSince(base);
    expect(expected.findings.map((finding) => finding.detail)).toEqual(['adds it.only(', 'adds it.skip(']);
    await withRepoEnv(async () => {
      const paths = ['src/other.test.ts', 'src/sum.test.ts'];
      const started = startScan(repo.dir, base.head, paths);
      expect(await findTampering(repo.dir, base.head, paths, started)).toEqual(expected);
      // Started for one path only: not the same change, so the scan asks git again for both.
      const other = startScan(repo.dir, base.head, ['src/sum.test.ts']);
      expect(await findTampering(repo.dir, base.head, paths, other)).toEqual(expected);
      expect(await findTampering(repo.dir, 'deadbeef'.repeat(5), paths, started)).toMatchObject({ findings: [], incomplete: expect.stringMatching(/^could not compare with the baseline commit: git diff: /) });
    });
  });

  it('never throws: an unknown baseline commit gives no findings and says why', async () => {
    repo = makeRepo({ 'src/sum.test.ts': SUM_TEST });
    repo.write('src/sum.test.ts', SUM_TEST.replace("it('adds',", "it.only('adds',"));
    const scan = await withRepoEnv(() => findTampering(repo.dir, 'deadbeef'.repeat(5), ['src/sum.test.ts']));
    expect(scan.findings).toEqual([]);
    expect(scan.incomplete).toMatch(/^could not compare with the baseline commit: git diff: /);
    const odd = await withRepoEnv(() => findTampering(repo.dir, '--output=/tmp/x', ['src/sum.test.ts']));
    expect(odd).toEqual({ findings: [], incomplete: 'the baseline "--output=/tmp/x" is not a commit id' });
    const missing = await withRepoEnv(() => findTampering(join(repo.dir, 'nowhere'), null, ['../../etc/passwd', '', 'a.test.ts']));
    expect(missing.findings).toEqual([{ path: 'a.test.ts', kind: 'deleted-test', detail: 'deletes the test file' }]);
  });

  it('stays bounded: skips binary and huge files, and says when it looked at only part of the change', async () => {
    repo = makeRepo({ 'src/keep.ts': 'x' });
    const base = await turnStart();
    writeFileSync(join(repo.dir, 'src/blob.test.ts'), Buffer.from([0x69, 0x74, 0x2e, 0x6f, 0x6e, 0x6c, 0x79, 0x28, 0x00]));
    repo.write('src/huge.test.ts', `it.only('x', () => {});\n${'// filler\n'.repeat(120_000)}`);
    for (let index = 0; index <= MAX_PATHS; index++) repo.write(`src/gen/f${String(index).padStart(3, '0')}.ts`, '// @ts-nocheck\n');
    const scan = await scanSince(base);
    expect(scan.findings.some((finding) => finding.path === 'src/blob.test.ts' || finding.path === 'src/huge.test.ts')).toBe(false);
    expect(scan.findings).toHaveLength(MAX_PATHS - 2);
    expect(scan.incomplete).toBe(`only ${MAX_PATHS} of the ${MAX_PATHS + 3} changed files were looked at`);
  });
});

// graphql-js asserts through helpers (`expectValueFrom(…).to.equal(…)`, `expectJSON(x).toDeepEqual(…)`):
// a failing test rewritten through one to what the code returned, after a block, with real mocha.
describe('a failing mocha test rewritten through an assertion helper', () => {
  const INSPECT_TEST = [
    "import assert from 'node:assert';",
    "import { inspect, total } from '../src/inspect.js';",
    "import { expectJSON } from './helpers/expect-json.js';",
    '',
    'function expectInspected(value, expected) {',
    '  assert.strictEqual(inspect(value), expected);',
    '}',
    '',
    "it('inspects a function', () => {",
    "  expectInspected(() => 0, '[function]');",
    '});',
    '',
    "it('totals', () => {",
    '  expectJSON(total([1, 2])).toDeepEqual(3);',
    '});',
    '',
  ].join('\n');
  const HELPER = [
    "import assert from 'node:assert';",
    '',
    'export function expectJSON(actual) {',
    '  return { toDeepEqual: (expected) => assert.deepStrictEqual(JSON.parse(JSON.stringify(actual)), expected) };',
    '}',
    '',
  ].join('\n');
  const BUGGY = "export const inspect = (value) => (typeof value === 'function' ? '[anonymous function]' : String(value));\nexport const total = (list) => list.reduce((a, b) => a + b, 1);\n";

  it('is found, for a helper the test file defines and one it imports from a test-helper module, a string received like `[anonymous function]` compared as a string', async () => {
    repo = makeRepo({ 'package.json': '{ "type": "module" }\n', 'src/inspect.js': BUGGY, 'test/inspect.test.js': INSPECT_TEST, 'test/helpers/expect-json.js': HELPER }, { git: false });
    const mocha = (): GateRun => {
      const result = spawnSync(join(PROJECT_ROOT, 'node_modules/.bin/mocha'), ['test/inspect.test.js'], { cwd: repo.dir, encoding: 'utf8' });
      return { name: 'test', cwd: repo.dir, status: result.status === 0 ? 'passed' : 'failed', filter: 'mocha', output: `${result.stdout}${result.stderr}` };
    };
    const blocked = mocha();
    expect(blocked.status).toBe('failed');
    const remembered = rememberFailingTests(repo.dir, [blocked]);
    expect(remembered.map((test) => [test.file, test.received])).toEqual([
      ['test/inspect.test.js', "'[anonymous function]'"],
      ['test/inspect.test.js', '4'],
    ]);
    repo.write('test/inspect.test.js', INSPECT_TEST.replace("'[function]'", "'[anonymous function]'").replace('toDeepEqual(3)', 'toDeepEqual(4)'));
    const passed = mocha();
    expect(passed.status).toBe('passed');
    expect(findRewrittenExpectations(repo.dir, remembered, [passed])).toEqual([
      { path: 'test/inspect.test.js', line: 10, kind: 'weakened-test', detail: "expectation changed to the value the code returned ('[anonymous function]')" },
      { path: 'test/inspect.test.js', line: 14, kind: 'weakened-test', detail: 'expectation changed to the value the code returned (4)' },
    ]);
  });
});
