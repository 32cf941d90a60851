import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 31 point 4: with pnpm not on PATH the real turbo printed "Unable to find package manager
// binary" and the agent was told to fix the code. A task runner's own setup failure is "could not
// start": no verdict, the human told what to fix, the stop not refused.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

describe('turbo without the package manager the repository names', () => {
  it('is a gate that could not start, said to the human, not a failure the agent must fix', () => {
    repo = makeRepo(
      {
        '.gitignore': 'node_modules\n.turbo\n',
        'package.json': `${JSON.stringify({ name: 'acme', private: true, packageManager: 'pnpm@9.15.0', scripts: { test: 'turbo run test' } })}\n`,
        'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
        'turbo.json': `${JSON.stringify({ tasks: { test: {} } })}\n`,
        'packages/a/package.json': `${JSON.stringify({ name: 'a', version: '1.0.0', scripts: { test: 'node -e 0' } })}\n`,
        'packages/a/index.js': 'module.exports = 1;\n',
        'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', run: ['turbo', 'run', 'test', '--no-update-notifier'] }] })}\n`,
      },
      { nodeModules: true },
    );
    repo.commit('initial');
    // node and git, no pnpm.
    const env = { ...repo.env, PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, TURBO_TELEMETRY_DISABLED: '1' };
    const at = { dir: repo.dir, env };
    promptStart(at);
    repo.write('packages/a/index.js', 'module.exports = 2;\n');
    const result = stop(at);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/no verdict from test.*turbo could not find the package manager the repository names/);
    const check = runBin(['check', 'test'], { cwd: repo.dir, env });
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/test: .*could not start.*turbo could not find the package manager/s);
    // Found at install time: doctor looks the package manager up as the gate would (it said "All is well").
    const doctor = runBin(['doctor'], { cwd: repo.dir, env });
    expect(doctor.stdout).toMatch(/✖ gate "test": turbo runs each task through pnpm \(packageManager in .*package\.json\), which is not on PATH here/);
  });
});
