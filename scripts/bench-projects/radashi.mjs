// TypeScript, a library behind a barrel: radashi at a pinned commit of its repository (every test
// imports `radashi`, an alias of src/mod.ts that re-exports every module). Installed as its README
// says, with pnpm at the version its package.json names. One fix-up: the `radashi-helper`
// devDependency is removed from package.json before the install (the registry answers 404 for it;
// only its own CLI scripts use it). Measured with the gates `gate init --yes --no-check` writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportTree, gitSnapshot, linkedCopy, makeOnce, run } from './fetch.mjs';

const REPO = 'radashi-org/radashi';
const COMMIT = 'aee417134d49eb814b7252b3949e2926ca443aa0';
const PNPM = 'pnpm@10.29.3';

export const radashi = {
  id: 'radashi',
  stack: 'ts',
  title: 'radashi 12.2.0',
  origin: `github ${REPO}@${COMMIT.slice(0, 10)}`,
  init: true,
  target: 0.1,
  fetch: ({ cache }) =>
    makeOnce(join(cache, `radashi-${COMMIT}-installed`), (dir) => {
      exportTree(gitSnapshot(cache, { repo: REPO, commit: COMMIT }), dir);
      const file = join(dir, 'package.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      delete manifest.devDependencies['radashi-helper'];
      writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
      run('npx', ['-y', PNPM, 'install', '--no-frozen-lockfile'], { cwd: dir });
    }),
  prepare(source, dir) {
    linkedCopy(source, dir);
    return 'package.json without the radashi-helper devDependency (404 on the registry)';
  },
  localPath: ['node_modules/.bin'],
  env: () => ({}),
  full: ['vitest', 'run'],
  module: {
    what: 'src/number/inRange.ts: the end of the range becomes inclusive',
    file: 'src/number/inRange.ts',
    replace: ['number < Math.max(start, end)', 'number <= Math.max(start, end)'],
    expect: [/inRange\.test\.ts/],
  },
  fix: {
    what: 'src/number/inRange.ts: exclusive again, written differently (the module stays changed)',
    file: 'src/number/inRange.ts',
    replace: ['number <= Math.max(start, end)', 'number < Math.max(end, start)'],
  },
  test: {
    what: 'tests/number/toFloat.test.ts: a new test with a wrong expectation',
    file: 'tests/number/toFloat.test.ts',
    append: "\ntest('gate bench: a wrong expectation', () => {\n  expect(_.inRange(1, 2)).toBe(false)\n})\n",
    expect: [/toFloat\.test\.ts/, /gate bench: a wrong expectation/],
  },
  testFix: {
    what: 'tests/number/toFloat.test.ts: the expectation corrected',
    file: 'tests/number/toFloat.test.ts',
    replace: ['expect(_.inRange(1, 2)).toBe(false)', 'expect(_.inRange(1, 2)).toBe(true)'],
  },
  // Issue 39. src/typed/isTagged.ts is behind isObject, isDate, isRegExp and the like, which many
  // modules call (every test loads it through the barrel).
  comment: {
    what: 'src/typed/isTagged.ts: a comment inside isTagged',
    file: 'src/typed/isTagged.ts',
    replace: ['  return Object.prototype.toString.call(value) === tag', '  // gate bench: a comment only\n  return Object.prototype.toString.call(value) === tag'],
  },
  shared: {
    what: 'src/typed/isTagged.ts: String(value) instead of Object.prototype.toString (throws on Object.create(null))',
    file: 'src/typed/isTagged.ts',
    replace: ['return Object.prototype.toString.call(value) === tag', 'return String(value) === tag'],
    expect: [/isObject\.test\.ts/],
  },
  sharedFix: {
    what: 'src/typed/isTagged.ts: Object.prototype.toString again, written differently',
    file: 'src/typed/isTagged.ts',
    replace: ['return String(value) === tag', 'return tag === Object.prototype.toString.call(value)'],
  },
  // The shape agents make: clamp changed (a reversed range is swapped, no longer an error) and a
  // test of the new behaviour added to its own test file; clamp's old test of the error fails.
  moduleAndTest: {
    what: 'src/number/clamp.ts swaps a reversed range instead of throwing + tests/number/clamp.test.ts a new (passing) test of it; the old throw test fails',
    edits: [
      { file: 'src/number/clamp.ts', replace: ["throw new Error('invalid clamp range')", 'return clamp(n, max, min)'] },
      { file: 'tests/number/clamp.test.ts', append: "\ntest('gate bench: a reversed range is swapped', () => {\n  expect(_.clamp(5, 10, 1)).toBe(5)\n})\n" },
    ],
    expect: [/clamp\.test\.ts/],
  },
  moduleAndTestFix: {
    what: 'src/number/clamp.ts throws again; the new test expects the throw',
    edits: [
      { file: 'src/number/clamp.ts', replace: ['return clamp(n, max, min)', "throw new Error('invalid clamp range')"] },
      { file: 'tests/number/clamp.test.ts', replace: ["a reversed range is swapped', () => {\n  expect(_.clamp(5, 10, 1)).toBe(5)", "a reversed range throws', () => {\n  expect(() => _.clamp(5, 10, 1)).toThrow()"] },
    ],
  },
};
