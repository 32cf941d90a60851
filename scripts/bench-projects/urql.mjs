// TypeScript monorepo: urql at a pinned commit of its repository (pnpm workspace, 20 packages,
// @urql/core shared by the rest). Installed as its CONTRIBUTING says, with pnpm 9 (its engines
// field) and `--ignore-scripts` (the postinstall fetches Cypress and links git hooks). One fix-up:
// exchanges/throw-on-error is removed before the install (a dependency of it is not on the
// registry, so pnpm cannot install the workspace with it, and the root `vitest run` fails on its
// test when it stays uninstalled). Measured with the gates `gate init --yes --no-check` writes:
// the monorepo's, per package.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { exportTree, gitSnapshot, linkedCopy, makeOnce, run } from './fetch.mjs';

const REPO = 'urql-graphql/urql';
const COMMIT = 'd510a9a110a39ac2c25cbaf6639c2278ced2f6de';
const PNPM = 'pnpm@9';
const EXCLUDED = 'exchanges/throw-on-error';

export const urql = {
  id: 'urql',
  stack: 'ts',
  title: 'urql (monorepo)',
  origin: `github ${REPO}@${COMMIT.slice(0, 10)}`,
  init: true,
  target: 0.25,
  fetch: ({ cache }) =>
    makeOnce(join(cache, `urql-${COMMIT}-installed`), (dir) => {
      exportTree(gitSnapshot(cache, { repo: REPO, commit: COMMIT }), dir);
      if (!existsSync(join(dir, EXCLUDED))) throw new Error(`urql: no ${EXCLUDED} at this commit, fix the bench`);
      rmSync(join(dir, EXCLUDED), { recursive: true });
      run('npx', ['-y', PNPM, 'install', '--no-frozen-lockfile', '--ignore-scripts'], { cwd: dir });
    }),
  prepare(source, dir) {
    linkedCopy(source, dir);
    return `${EXCLUDED} removed (not installable from the registry); pnpm install --ignore-scripts`;
  },
  localPath: ['node_modules/.bin'],
  env: () => ({ CI: 'true' }),
  // Its package.json "test": `test -z $CI && vitest || vitest`: one root vitest over every package.
  full: ['vitest', 'run'],
  module: {
    what: 'packages/core/src/utils/collectTypenames.ts: typenames lower-cased (@urql/core, shared by all)',
    file: 'packages/core/src/utils/collectTypenames.ts',
    replace: ['types.add(obj[key] as string);', 'types.add((obj[key] as string).toLowerCase());'],
    expect: [/collectTypenames\.test\.ts/],
  },
  fix: {
    what: 'packages/core/src/utils/collectTypenames.ts: as before, written differently (@urql/core stays changed)',
    file: 'packages/core/src/utils/collectTypenames.ts',
    replace: ['types.add((obj[key] as string).toLowerCase());', 'types.add(String(obj[key]));'],
  },
  test: {
    what: 'exchanges/retry/src/retryExchange.test.ts: a new test with a wrong expectation (a leaf)',
    file: 'exchanges/retry/src/retryExchange.test.ts',
    append: "\nit('gate bench: a wrong expectation', () => {\n  expect(1 + 1).toBe(3);\n});\n",
    expect: [/retryExchange\.test\.ts/, /gate bench: a wrong expectation/],
  },
  testFix: {
    what: 'exchanges/retry/src/retryExchange.test.ts: the expectation corrected',
    file: 'exchanges/retry/src/retryExchange.test.ts',
    replace: ['expect(1 + 1).toBe(3);', 'expect(1 + 1).toBe(2);'],
  },
  // Issue 39. packages/core/src/utils/variables.ts and error.ts are in @urql/core's utils, which
  // nearly every test file of every package loads.
  comment: {
    what: 'packages/core/src/utils/variables.ts: a comment inside stringify (stringifyVariables)',
    file: 'packages/core/src/utils/variables.ts',
    replace: ['  const keys = Object.keys(x).sort();', '  // gate bench: a comment only\n  const keys = Object.keys(x).sort();'],
  },
  shared: {
    what: 'packages/core/src/utils/error.ts: generateErrorMessage says "[Network Error]" (CombinedError messages; breaks @urql/exchange-auth and core tests)',
    file: 'packages/core/src/utils/error.ts',
    replace: ['if (networkErr) return `[Network] ${networkErr.message}`;', 'if (networkErr) return `[Network Error] ${networkErr.message}`;'],
    expect: [/authExchange\.test\.ts|fetch(Source)?\.test\.ts/],
  },
  sharedFix: {
    what: 'packages/core/src/utils/error.ts: "[Network]" again, written differently',
    file: 'packages/core/src/utils/error.ts',
    replace: ['if (networkErr) return `[Network Error] ${networkErr.message}`;', 'if (networkErr) return `[Network] ${networkErr.message || \'\'}`;'],
  },
};
