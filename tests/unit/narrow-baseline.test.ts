import { describe, expect, it } from 'vitest';
import type { Failure } from '../../src/filters/filter.js';
import { narrowBaseline, type NarrowInput } from '../../src/verdict/narrow-baseline.js';

const failure = (id: string, file?: string): Failure => ({ id, message: 'failed', ...(file === undefined ? {} : { file }) });
const input = (preset: string | undefined, run: string[], failures: Failure[], more: Partial<NarrowInput> = {}): NarrowInput => ({
  preset,
  run,
  cwd: '/repo',
  failures,
  existsNow: () => true,
  existedBefore: () => true,
  ...more,
});

describe('narrowBaseline', () => {
  it('vitest: the failing test files, each once, after the full command', () => {
    const failures = [failure('src/b.test.ts > b > one', 'src/b.test.ts'), failure('src/a.test.ts > a', 'src/a.test.ts'), failure('src/b.test.ts > b > two', 'src/b.test.ts')];
    expect(narrowBaseline(input('vitest', ['vitest', 'run', '--reporter=default'], failures))).toEqual({
      kind: 'narrowed',
      argv: ['vitest', 'run', '--reporter=default', 'src/a.test.ts', 'src/b.test.ts'],
      ids: ['src/b.test.ts > b > one', 'src/a.test.ts > a', 'src/b.test.ts > b > two'],
    });
  });

  it('vitest: a workspace project\'s "|name| " prefix is not part of the path', () => {
    const narrowed = narrowBaseline(input('vitest', ['vitest', 'run'], [failure('|unit| tests/a.test.ts > a', '|unit| tests/a.test.ts')]));
    expect(narrowed).toMatchObject({ argv: ['vitest', 'run', 'tests/a.test.ts'] });
  });

  it('jest: the failing files by path, not as patterns', () => {
    const narrowed = narrowBaseline(input('jest', ['jest', '--ci'], [failure('app/[id].test.ts > renders', 'app/[id].test.ts')]));
    expect(narrowed).toMatchObject({ argv: ['jest', '--ci', '--runTestsByPath', 'app/[id].test.ts'] });
  });

  it('mocha and node:test: the failing files, absolute ones made relative to the gate\'s folder', () => {
    expect(narrowBaseline(input('mocha', ['mocha'], [failure('test/a.spec.js > a', 'test/a.spec.js')]))).toMatchObject({ argv: ['mocha', 'test/a.spec.js'] });
    const node = narrowBaseline(input('node-test', ['node', '--test', '--test-reporter=spec'], [failure('/repo/test/a.test.mjs > a', '/repo/test/a.test.mjs')]));
    expect(node).toMatchObject({ argv: ['node', '--test', '--test-reporter=spec', 'test/a.test.mjs'] });
    const url = narrowBaseline(input('node-test', ['node', '--test'], [failure('x', 'file:///repo/test/b.test.mjs')]));
    expect(url).toMatchObject({ argv: ['node', '--test', 'test/b.test.mjs'] });
  });

  it('pytest: the files of the failing node ids (a node id the baseline lacks would stop pytest), collection errors by file', () => {
    const failures = [failure('tests/test_a.py::TestA::test_b[1-2]'), failure('tests/test_a.py::test_c'), failure('tests/test_c.py')];
    expect(narrowBaseline(input('pytest', ['pytest', '-q'], failures))).toMatchObject({
      kind: 'narrowed',
      argv: ['pytest', '-q', 'tests/test_a.py', 'tests/test_c.py'],
    });
    expect(narrowBaseline(input('pytest', ['pytest', '-q'], [failure('tests::weird')]))).toMatchObject({ kind: 'full' });
  });

  it('go test: the failing packages, their top-level tests by exact name (subtests run with them)', () => {
    const failures = [failure('example.com/m/pkg/util.TestParse/empty_input'), failure('example.com/m.TestMain2'), failure('example.com/m/pkg/util.TestFormat')];
    expect(narrowBaseline(input('go-test', ['go', 'test', './...'], failures, { goModule: 'example.com/m' }))).toMatchObject({
      kind: 'narrowed',
      argv: ['go', 'test', '-run', '^(TestFormat|TestMain2|TestParse)$', '.', './pkg/util'],
    });
  });

  it('go test: a build error, a package of another module or no go.mod: the full run', () => {
    const run = ['go', 'test', './...'];
    expect(narrowBaseline(input('go-test', run, [failure('pkg/a.go:3:5', 'pkg/a.go')], { goModule: 'example.com/m' }))).toMatchObject({ kind: 'full' });
    expect(narrowBaseline(input('go-test', run, [failure('example.com/other.TestA')], { goModule: 'example.com/m' }))).toMatchObject({ kind: 'full' });
    expect(narrowBaseline(input('go-test', run, [failure('example.com/m.TestA')]))).toMatchObject({ kind: 'full' });
  });

  it('cargo test: the failing tests by exact name, without the test binary\'s; a compile error: the full run', () => {
    const failures = [failure('mycrate::tests::adds'), failure('integration::round_trip'), failure('mycrate::src/lib.rs - add (line 5)')];
    expect(narrowBaseline(input('cargo-test', ['cargo', 'test', '--no-fail-fast'], failures))).toMatchObject({
      argv: ['cargo', 'test', '--no-fail-fast', '--', '--exact', 'round_trip', 'src/lib.rs - add (line 5)', 'tests::adds'],
    });
    expect(narrowBaseline(input('cargo-test', ['cargo', 'test'], [failure('src/lib.rs:3:error[E0308]', 'src/lib.rs')]))).toMatchObject({ kind: 'full' });
  });

  it('a test file the turn added: new without a run; all of them: nothing to run', () => {
    const existedBefore = (path: string) => path !== 'src/new.test.ts';
    const failures = [failure('src/new.test.ts > a', 'src/new.test.ts'), failure('src/old.test.ts > b', 'src/old.test.ts')];
    expect(narrowBaseline(input('vitest', ['vitest', 'run'], failures, { existedBefore }))).toEqual({
      kind: 'narrowed',
      argv: ['vitest', 'run', 'src/old.test.ts'],
      ids: ['src/new.test.ts > a', 'src/old.test.ts > b'],
    });
    expect(narrowBaseline(input('vitest', ['vitest', 'run'], failures.slice(0, 1), { existedBefore }))).toEqual({ kind: 'absent', ids: ['src/new.test.ts > a'] });
  });

  it('the full run when a failure cannot be placed: no file, a path that is not there now, no preset, a runner that cannot select', () => {
    expect(narrowBaseline(input('vitest', ['vitest', 'run'], [failure(': Unhandled Rejection: boom')]))).toMatchObject({ kind: 'full' });
    expect(narrowBaseline(input('vitest', ['vitest', 'run'], [failure('x > y', 'x.test.ts')], { existsNow: () => false }))).toMatchObject({ kind: 'full' });
    expect(narrowBaseline(input('vitest', ['vitest', 'run'], [failure('x > y', '/elsewhere/x.test.ts')]))).toMatchObject({ kind: 'full' });
    expect(narrowBaseline(input(undefined, ['npm', 'test'], [failure('x > y', 'x.test.ts')]))).toEqual({ kind: 'full', why: 'the gate has its own command' });
    expect(narrowBaseline(input('eslint', ['eslint', '.'], [failure('x.ts no-unused-vars: y', 'x.ts')]))).toEqual({ kind: 'full', why: 'eslint cannot select tests' });
  });

  // Issue 31 point 3: the failing packages alone, as the task runner names them in each failure id.
  it('turbo: each failing package once as --filter=NAME (not ...NAME), before a "--", the gate\'s other words kept', () => {
    const run = ['turbo', 'run', 'test', '--cache=local:rw,remote:r', '--continue=dependencies-successful'];
    const failures = [failure('@acme/web > test/a.test.js > totals', 'test/a.test.js'), failure('@acme/lib > src/b.test.ts > adds'), failure('@acme/web > test/a.test.js > rounds')];
    expect(narrowBaseline(input('turbo-test', run, failures))).toEqual({
      kind: 'narrowed',
      argv: [...run, '--filter=@acme/lib', '--filter=@acme/web'],
      ids: failures.map((one) => one.id),
    });
    expect(narrowBaseline(input('turbo-lint', ['turbo', 'run', 'lint', '--', '--max-warnings=0'], [failure('docs > a.ts no-undef: x')]))).toMatchObject({
      argv: ['turbo', 'run', 'lint', '--filter=docs', '--', '--max-warnings=0'],
    });
  });

  it('nx: the failing projects as one --projects list', () => {
    const failures = [failure('web > src/app.spec.ts > renders'), failure('api > main.ts no-undef: x'), failure('web > src/app.spec.ts > links')];
    expect(narrowBaseline(input('nx-test', ['nx', 'run-many', '--targets=test', '--outputStyle=static'], failures))).toMatchObject({
      kind: 'narrowed',
      argv: ['nx', 'run-many', '--targets=test', '--outputStyle=static', '--projects=api,web'],
    });
  });

  it('turbo and nx: a failure that names no package sends the check to the full run', () => {
    const failures = [failure('@acme/web > test/a.test.js > totals'), failure('turbo exited (1)')];
    expect(narrowBaseline(input('turbo-test', ['turbo', 'run', 'test'], failures))).toEqual({ kind: 'full', why: 'turbo exited (1): names no package' });
    expect(narrowBaseline(input('nx-lint', ['nx', 'run-many', '--targets=lint'], [failure(' > x')]))).toMatchObject({ kind: 'full' });
  });
});
