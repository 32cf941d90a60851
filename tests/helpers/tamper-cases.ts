import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type BinResult, promptStart, stop } from './run-bin.js';
import { copyRepo, makeRepo, type TempRepo } from './temp-repo.js';

// Issue 16, point 1: a test that failed at a block and passes at the next stop because the agent
// edited the test instead of the code. The same cases for every runner, run for real.

type Mode = 'warn' | 'block';

export interface TestCase {
  /** In words ("adds two numbers"); the runner makes its name from them. */
  title: string;
  body: string[];
}

export interface TamperRunner {
  name: string;
  preset: string;
  /** The code file, and its source with `expression` as what the function returns for (a, b). */
  code: string;
  source: (expression: string) => string;
  testFile: string;
  /** The test file holding these tests. Body lines may hold `\n` (a Go `if` block). */
  tests: (cases: TestCase[]) => string;
  /** The first line of the body: `result` = the function of (2, 3). */
  bind: string;
  /** A check that passes either way (the result is a number). */
  typeCheck: string;
  /** The check that result equals `expected`. */
  equal: (expected: string) => string;
  /** A check in place of `equal` that pins nothing. */
  weak: string;
  /** How the finding names the strong check and the weak one. */
  strongName: string;
  weakName: string;
  /** A body that does nothing but still parses. */
  empty: string[];
  earlyReturn: string;
  extra: Record<string, string>;
  /** The repo's env with the runner's tools. */
  env?: (repo: TempRepo) => Record<string, string>;
  nodeModules?: boolean;
}

const output = (result: BinResult) => `${result.stdout}\n${result.stderr}`;

export function describeTamperCases(runners: TamperRunner[]): void {
  let repo: TempRepo;
  afterEach(() => repo?.cleanup());

  describe.each(runners)('a test edited to pass instead of the code ($name)', (runner) => {
    const body = (last = runner.equal('5')) => [runner.bind, runner.typeCheck, last];
    const file = (title: string, lines: string[]) => runner.tests([{ title, body: lines }]);
    // 1-based line of the body's first line: the line after the declaration.
    const bodyStart = file('adds', ['@@']).split('\n').findIndex((line) => line.trim() === '@@') + 1;
    const at = (offset: number) => `${runner.testFile}:${bodyStart + offset}`;
    const hook = () => ({ dir: repo.dir, env: runner.env?.(repo) ?? repo.env });

    function start(mode: Mode): void {
      repo = makeRepo(
        {
          'gate.config.json': `${JSON.stringify({ tamper: mode, gates: [{ name: 'test', preset: runner.preset }] }, null, 2)}\n`,
          [runner.code]: runner.source('a + b'),
          [runner.testFile]: file('adds', body()),
          ...runner.extra,
        },
        { nodeModules: runner.nodeModules ?? false },
      );
      expect(promptStart(hook()).code).toBe(0);
    }

    // The blocked repository, made once per mode (a real run of the runner) and copied for each test.
    const blockedRepos = new Map<Mode, TempRepo>();
    afterAll(() => {
      for (const blocked of blockedRepos.values()) blocked.cleanup();
    });

    /** Green at the start; the code broken (2 * 3 = 6, not 5); the stop blocked. */
    function breakAndBlock(mode: Mode): void {
      let blocked = blockedRepos.get(mode);
      if (!blocked) {
        start(mode);
        repo.write(runner.code, runner.source('a * b'));
        const result = stop(hook());
        expect(result.code, output(result)).toBe(2);
        blocked = repo;
        blockedRepos.set(mode, blocked);
      }
      repo = copyRepo(blocked);
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

    it('names an expectation rewritten to the value the code returned (tamper "warn")', () => {
      breakAndBlock('warn');
      repo.write(runner.testFile, file('adds', body(runner.equal('6'))));
      expectNamed(stop(hook()), 'warn', `${at(2)}: expectation changed to the value the code returned (6)`);
    });

    it('names a weakened matcher (tamper "block")', () => {
      breakAndBlock('block');
      repo.write(runner.testFile, file('adds', body(runner.weak)));
      expectNamed(stop(hook()), 'block', `${at(2)}: matcher weakened (${runner.strongName} → ${runner.weakName})`);
    });

    it('names a deleted assertion (tamper "warn")', () => {
      breakAndBlock('warn');
      repo.write(runner.testFile, file('adds', body().slice(0, 2)));
      expectNamed(stop(hook()), 'warn', `${at(-1)}: assertion deleted`);
    });

    it('names an emptied test body (tamper "block")', () => {
      breakAndBlock('block');
      repo.write(runner.testFile, file('adds', runner.empty));
      expectNamed(stop(hook()), 'block', `${at(-1)}: test body emptied`);
    });

    it('names a return at the top of the test (tamper "warn")', () => {
      breakAndBlock('warn');
      repo.write(runner.testFile, file('adds', [runner.earlyReturn, ...body()]));
      expectNamed(stop(hook()), 'warn', `${at(0)}: returns at the top of the test, before its assertions`);
    });

    it('says nothing when the expectation changed along with the code before any block', () => {
      start('block');
      repo.write(runner.code, runner.source('a * b'));
      repo.write(runner.testFile, file('adds', body(runner.equal('6'))));
      expect(stop(hook())).toMatchObject({ code: 0, stdout: '', stderr: '' });
    });

    it('says nothing about a new test added with the fix', () => {
      breakAndBlock('block');
      repo.write(runner.code, runner.source('a + b'));
      repo.write(runner.testFile, runner.tests([{ title: 'adds', body: body() }, { title: 'adds again', body: body() }]));
      expect(stop(hook())).toMatchObject({ code: 0, stdout: '', stderr: '' });
    });

    it('says nothing about a test renamed with the fix', () => {
      breakAndBlock('block');
      repo.write(runner.code, runner.source('a + b'));
      repo.write(runner.testFile, file('adds two numbers', body()));
      expect(stop(hook())).toMatchObject({ code: 0, stdout: '', stderr: '' });
    });
  });
}
