import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 28 point 7: urql's root `eslint .` ran over the whole repository on top of every package's
// own lint. A folder whose config runs the same linter in the run owns its files.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const LINT = json({ gates: [{ name: 'lint', preset: 'eslint' }] });

function workspace(): TempRepo {
  const made = makeRepo(
    {
      '.gitignore': 'node_modules/\n',
      'package.json': json({ name: 'acme', private: true, type: 'module' }),
      'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
      'eslint.config.mjs': "export default [{ rules: { 'no-unused-vars': 'error' } }];\n",
      'gate.config.json': json({ workspaces: 'pnpm', gates: [{ name: 'lint', preset: 'eslint' }] }),
      'scripts/release.js': 'export const release = () => 1;\n',
      'packages/core/package.json': json({ name: '@acme/core', version: '1.0.0', type: 'module' }),
      'packages/core/src/index.js': 'const unused = 1;\nexport const answer = 42;\n',
      'packages/core/gate.config.json': LINT,
      'packages/docs/package.json': json({ name: '@acme/docs', version: '1.0.0', type: 'module' }),
      'packages/docs/src/index.js': 'const stale = 1;\nexport const title = "docs";\n',
    },
    { nodeModules: true },
  );
  made.commit('initial');
  return made;
}

describe('a package with its own lint gate', () => {
  it("owns its files: the root's full eslint run leaves it out, and its findings are reported once", () => {
    repo = workspace();
    const check = runBin(['check', '--all'], { cwd: repo.dir, env: repo.env });
    expect(check.code).toBe(1);
    const rootLog = readFileSync(join(repo.dir, '.git/gate/logs/lint.log'), 'utf8');
    const coreLog = readFileSync(join(repo.dir, '.git/gate/logs/packages~core~lint.log'), 'utf8');
    expect(coreLog).toMatch(/'unused' is assigned a value but never used/);
    expect(rootLog).not.toMatch(/packages\/core/);
    // A package without a lint gate of its own stays the root's.
    expect(rootLog).toMatch(/packages\/docs\/src\/index\.js[\s\S]*'stale' is assigned a value but never used/);
    expect(runBin(['status', '--json'], { cwd: repo.dir, env: repo.env }).code).toBe(0);
  });
});
