import { describe, expect, it } from 'vitest';
import { findSetupFault } from '../../src/runner/setup-fault.js';

// Outputs captured from the tools named (turbo 2.11.11 with pnpm off PATH, npm 10, pnpm 9, dash, bash);
// the wrong-manager line is corepack's message as its source words it (it needs the network here).
const TURBO_NO_PM = `   • turbo 2.11.11
   • Packages in scope: a
   • Running test in 1 package
   • Remote caching disabled

  x Unable to find package manager binary: cannot find binary path
`;

describe("a task runner's own setup failure", () => {
  it.each([
    ['turbo without the package manager', TURBO_NO_PM, /turbo could not find the package manager/],
    ['npm without the script', 'npm error Missing script: "typecheck"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n', /the script "typecheck" the gate runs is not in package\.json/],
    ['pnpm without the script', ' ERR_PNPM_NO_SCRIPT  Missing script: typecheck\n', /the script the gate runs is not in package\.json/],
    ['the wrong package manager', 'Usage Error: This project is configured to use pnpm because /x/package.json has a "packageManager" field\n', /configured to use pnpm/],
    ['dash without pnpm', 'sh: 1: pnpm: not found\n', /pnpm is not on the PATH/],
    ['bash without yarn', 'bash: line 1: yarn: command not found\n', /yarn is not on the PATH/],
    ['env without npx', "/usr/bin/env: 'npx': No such file or directory\n", /npx is not on the PATH/],
  ])('%s', (_name, output, what) => {
    expect(findSetupFault(output)?.what).toMatch(what);
  });

  it('a test failure or a missing module of the project is none', () => {
    expect(findSetupFault('FAIL src/a.test.ts > adds\nAssertionError: expected 1 to be 2\n')).toBeUndefined();
    expect(findSetupFault("Error: Cannot find module './sum'\n")).toBeUndefined();
    expect(findSetupFault('sh: 1: mytool: not found\n')).toBeUndefined();
    // A test that checks a CLI's error, and a suite that went on to fail for its own reasons.
    const suite = ['sh: 1: pnpm: not found', ...Array.from({ length: 30 }, (_, i) => `not ok ${i + 1} - case ${i + 1}`)].join('\n');
    expect(findSetupFault(suite)).toBeUndefined();
  });
});
