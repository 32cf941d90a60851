import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAILING_OTHER, SUM_OK, SUM_TEST, vitestProject } from '../helpers/fixtures.js';
import { runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 26, point 1: init wrote gates that were red on a clean checkout (urql's next-urql: a
// vitest.config.ts and no test file, so `vitest run` exits 1 with "No test files found"), every stop
// touching that package was refused, and doctor said "All is well".

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const gate = (args: string[]) => runBin(args, { cwd: repo.dir, env: repo.env });
const readJson = (path: string): unknown => JSON.parse(readFileSync(join(repo.dir, path), 'utf8'));
const VITEST_CONFIG = "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: {} });\n";
const member = (name: string) => `${JSON.stringify({ name, version: '1.0.0', private: true, type: 'module', devDependencies: { vitest: '4.1.12' } }, null, 2)}\n`;

describe('gate init writes no gate that is red before any agent touches anything', () => {
  it('a workspace package with a vitest config and no test file gets no test gate, and init says why', () => {
    repo = makeRepo(
      {
        '.gitignore': 'node_modules\n',
        'package.json': `${JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'], devDependencies: { stopgate: '0.1.0' } }, null, 2)}\n`,
        'packages/core/package.json': member('@acme/core'),
        'packages/core/vitest.config.ts': VITEST_CONFIG,
        'packages/core/src/sum.ts': SUM_OK,
        'packages/core/src/sum.test.ts': SUM_TEST,
        'packages/next/package.json': member('@acme/next'),
        'packages/next/vitest.config.ts': VITEST_CONFIG,
        'packages/next/src/index.ts': 'export const name = "next";\n',
      },
      { nodeModules: 'with-gate' },
    );
    const result = gate(['init', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /Note: packages\/next: no test gate: vitest is set up \(package\.json devDependencies has vitest; vitest\.config\.ts is present\), but no file here matches vitest's default test patterns \(\*\*\/\*\.\{test,spec\}\.\?\(c\|m\)\[jt\]s\?\(x\)\), so its full run has no test to run and fails\./,
    );
    expect(readJson('packages/core/gate.config.json')).toMatchObject({ gates: [{ name: 'test', preset: 'vitest' }] });
    expect(existsSync(join(repo.dir, 'packages/next/gate.config.json'))).toBe(false);
    // The gates init did write all pass on the clean tree, and it says so.
    expect(result.stdout).toMatch(/✔ packages\/core:test {2}passed/);
    expect(result.stdout).toMatch(/passed {2}[\d.]+s\nEvery gate passed on this tree\.\n/);
    expect(result.stdout).toMatch(/All is well\.\n$/);
  });

  it('a test already failing at the commit: init ends listing the gate as red with its first failure, and doctor reports it', () => {
    const files: Record<string, string> = { ...vitestProject(), ...FAILING_OTHER };
    delete files['gate.config.json'];
    repo = makeRepo(files, { nodeModules: 'with-gate' });
    const result = gate(['init', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Running every gate once, in full, on this tree/);
    const tail = result.stdout.slice(result.stdout.lastIndexOf('gate doctor:'));
    expect(tail).toMatch(/✖ gate "test" is red on this tree/);
    expect(tail).toMatch(/Red before any agent touches anything \(1 of 2 gates\): every stop that runs it is refused until it passes\.\n {2}✖ test: npx vitest run --reporter=default — failed \(exit 1\)\n/);
    expect(tail).toMatch(/ {6}.*src\/other\.test\.ts.*knows the answer[\s\S]*expected 41 to be 42/);
    expect(tail).toMatch(/Fix it, or drop or adjust the "test" gate in its gate config; "gate check test" runs it again/);
    expect(tail).not.toMatch(/All is well/);

    const doctor = gate(['doctor']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/✖ gate "test" is red on this tree \(the last full run, by gate check --all at .*: failed \(exit 1\)\): every stop that runs it is refused/);
    expect(doctor.stdout).not.toMatch(/All is well/);
  });

  it('--no-check writes the gates without running them, and doctor says no run is known for the tree', () => {
    const files: Record<string, string> = { ...vitestProject(), ...FAILING_OTHER };
    delete files['gate.config.json'];
    repo = makeRepo(files, { nodeModules: 'with-gate' });
    const result = gate(['init', '--yes', '--no-check']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/Running every gate once/);
    expect(result.stdout).toMatch(/· no full run of every gate is recorded here, so a gate red before any change would not be known here: run "gate check --all"/);
  });
});
