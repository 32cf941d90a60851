import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// A dependent's lint runs only when its configuration can read other packages (src/workspace/skip-dependent-lint.ts).
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const GATES = json({ gates: [{ name: 'test', run: ['node', '--test'], filter: 'node-test' }, { name: 'lint', preset: 'eslint' }] });
const TEST = "import { test } from 'node:test';\n\ntest('works', () => {});\n";

/** A real pnpm workspace: app depends on core; real eslint (this project's) with `config` as eslint.config.mjs. */
function workspace(config: string): TempRepo {
  return makeRepo(
    {
      '.gitignore': 'node_modules/\n',
      'package.json': json({ name: 'acme', private: true, type: 'module' }),
      'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
      'eslint.config.mjs': config,
      'gate.config.json': json({ workspaces: 'pnpm' }),
      'packages/core/package.json': json({ name: '@acme/core', version: '1.0.0', type: 'module' }),
      'packages/core/src/index.js': 'export const answer = 42;\n',
      'packages/core/test/index.test.js': TEST,
      'packages/core/gate.config.json': GATES,
      'packages/app/package.json': json({ name: '@acme/app', version: '1.0.0', type: 'module', dependencies: { '@acme/core': 'workspace:*' } }),
      'packages/app/src/index.js': 'export const twice = (n) => n * 2;\n',
      'packages/app/test/index.test.js': TEST,
      'packages/app/gate.config.json': GATES,
    },
    { nodeModules: true },
  );
}

const ran = (r: TempRepo) =>
  (readStopRecords(join(r.dir, '.git', 'gate')).at(-1)?.gates ?? [])
    .filter((gate) => gate.status !== 'cached')
    .map((gate) => gate.name)
    .sort();
const changeCore = (r: TempRepo) => r.write('packages/core/src/index.js', `${readFileSync(join(r.dir, 'packages/core/src/index.js'), 'utf8')}// a comment\n`);
const status = (r: TempRepo) => runBin(['status'], { cwd: r.dir, env: { ...r.env, CLAUDE_CODE_SESSION_ID: 'session-1' } }).stdout;

describe("a dependent's lint after a change in a package it depends on", () => {
  it('is left out when the lint reads one file at a time, and status says why; its tests still run', () => {
    repo = workspace("export default [{ rules: { 'no-unused-vars': 'error', 'no-debugger': 'error' } }];\n");
    promptStart(repo);
    changeCore(repo);
    expect(status(repo)).toContain(
      'skip packages/app:lint: it depends on @acme/core, which changed, but its eslint configuration (eslint.config.mjs) turns on no type-aware or import-resolving rule, so that change cannot change its result: not run',
    );
    expect(stop(repo)).toMatchObject({ code: 0 });
    expect(ran(repo)).toEqual(['packages/app:test', 'packages/core:lint', 'packages/core:test']);
  });

  it('runs when the configuration turns on type-aware parsing', () => {
    repo = workspace("export default [{ languageOptions: { parserOptions: { project: true } }, rules: { 'no-unused-vars': 'error' } }];\n");
    promptStart(repo);
    changeCore(repo);
    expect(stop(repo)).toMatchObject({ code: 0 });
    expect(ran(repo)).toEqual(['packages/app:lint', 'packages/app:test', 'packages/core:lint', 'packages/core:test']);
  });

  it('runs when the configuration comes from a package gate does not know', () => {
    repo = workspace("import shared from '@acme/lint-config';\n\nexport default [...shared];\n");
    promptStart(repo);
    changeCore(repo);
    expect(status(repo)).toMatch(/run {2}packages\/app:lint: it depends on @acme\/core, which changed \(the full run\)/);
  });
});
