import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import type { TempRepo } from '../helpers/temp-repo.js';
import { breakShared, npmWorkspace, pnpmWorkspace, touchLeaf } from '../helpers/workspace-fixtures.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const read = (r: TempRepo, path: string) => readFileSync(join(r.dir, path), 'utf8');
const lastStop = (r: TempRepo) => readStopRecords(join(r.dir, '.git', 'gate')).at(-1);
const ranGates = (r: TempRepo) =>
  (lastStop(r)?.gates ?? [])
    .filter((gate) => gate.status !== 'cached')
    .map((gate) => gate.name)
    .sort();

describe.each([
  ['npm', npmWorkspace],
  ['pnpm', pnpmWorkspace],
])('a stop in a 12-package %s workspace, each package with its own config', (_kind, makeWorkspace) => {
  it('a change in a leaf runs only that leaf', () => {
    repo = makeWorkspace({ gateConfigs: true });
    promptStart(repo);
    const leaf = touchLeaf(repo);
    expect(stop(repo)).toMatchObject({ code: 0 });
    expect(ranGates(repo)).toEqual([`${leaf}:test`]);
  });

  it('a change in the shared library runs it and every package that depends on it, never the unrelated slow one', () => {
    repo = makeWorkspace({ gateConfigs: true });
    promptStart(repo);
    repo.write('packages/shared/README.md', 'no code change\n');
    repo.write('packages/shared/src/index.js', `${read(repo, 'packages/shared/src/index.js')}\n// a comment\n`);
    expect(stop(repo)).toMatchObject({ code: 0 });
    const ran = ranGates(repo);
    expect(ran).toContain('packages/shared:test');
    expect(ran).toEqual(expect.arrayContaining(['packages/utils:test', 'apps/web:test', 'apps/api:test', 'apps/admin:test']));
    expect(ran).not.toContain('packages/slow:test');
    expect(ran.filter((name) => name.includes('leaf'))).toEqual([]);
  });

  it('a library change that breaks a dependent blocks, and the report names the dependent, its test and file:line', () => {
    repo = makeWorkspace({ gateConfigs: true });
    promptStart(repo);
    const broken = breakShared(repo);
    const result = stop(repo);
    expect(result.code).toBe(2);
    // shared, and the four packages that depend on it: utils, web, api, admin.
    expect(result.stderr).toMatch(new RegExp(`^gate: 1 of 5 checks failed \\(${broken.gate}\\)`));
    expect(result.stderr).toContain(`## ${broken.gate}: failed (exit 1)`);
    expect(result.stderr).toContain(broken.test);
    expect(result.stderr).toContain(broken.location);
    expect(result.stderr).toContain(`cd ${broken.dir} && node --test`);
    expect(ranGates(repo)).not.toContain('packages/slow:test');
  });
});

describe('gate status and gate check in a workspace', () => {
  it('status names the dependents that will run and why; check NAME runs one package gate by its full name', () => {
    repo = makeWorkspace();
    repo.write('packages/shared/src/index.js', `${read(repo, 'packages/shared/src/index.js')}\n// a comment\n`);
    const status = runBin(['status'], { cwd: repo.dir, env: repo.env });
    expect(status.stdout).toMatch(/run {2}apps\/web:test: it depends on @acme\/shared, which changed \(the full run\)/);
    expect(status.stdout).toMatch(/run {2}packages\/shared:test: src\/index\.js changed/);
    const check = runBin(['check', 'packages/leaf-a:test'], { cwd: repo.dir, env: repo.env });
    expect(check).toMatchObject({ code: 0 });
    expect(check.stderr).toContain('packages/leaf-a:test');
  });

  function makeWorkspace() {
    return npmWorkspace({ gateConfigs: true });
  }
});

describe('a package no config covers, and a config edited', () => {
  const systemMessage = (stdout: string): string => (stdout.trim() === '' ? '' : (JSON.parse(stdout).systemMessage ?? ''));

  it('a new package with a failing test and no config of its own is named to the human, once a session', () => {
    repo = npmWorkspace({ gateConfigs: true });
    promptStart(repo);
    repo.write('packages/timeout/package.json', `${JSON.stringify({ name: '@acme/timeout', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } })}\n`);
    repo.write('packages/timeout/src/index.js', 'export const limit = 5;\n');
    repo.write('packages/timeout/test/index.test.js', "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { limit } from '../src/index.js';\ntest('limit', () => assert.equal(limit, 6));\n");
    expect(runBin(['status'], { cwd: repo.dir, env: repo.env }).stdout).toMatch(/^note: +packages\/timeout has no gate config of its own/m);
    const first = stop(repo);
    expect(first.code).toBe(0);
    expect(systemMessage(first.stdout)).toMatch(/^gate: packages\/timeout has no gate config of its own, so only the root config's gates looked at it: its own tests and checks did not run\. Run "[^"]*gate init" at the repository root again/m);
    repo.write('packages/timeout/src/index.js', 'export const limit = 7;\n');
    const second = stop(repo);
    expect(second.code).toBe(0);
    expect(systemMessage(second.stdout)).not.toContain('packages/timeout');
  });

  it('a change in a package with its own config names nothing', () => {
    repo = npmWorkspace({ gateConfigs: true });
    promptStart(repo);
    touchLeaf(repo);
    expect(systemMessage(stop(repo).stdout)).not.toContain('no gate config');
  });

  it("editing a package's gate.config.json runs that package's gates, in full", () => {
    repo = npmWorkspace({ gateConfigs: true });
    promptStart(repo);
    // Its "on" globs match no config file: the edit alone runs it.
    repo.write('packages/leaf-b/gate.config.json', `${JSON.stringify({ gates: [{ name: 'test', run: ['node', '--test'], filter: 'node-test', on: ['**/*.js'] }] }, null, 2)}\n`);
    expect(runBin(['status'], { cwd: repo.dir, env: repo.env }).stdout).toMatch(/run {2}packages\/leaf-b:test: its gate\.config\.json changed \(the full run\)/);
    expect(stop(repo)).toMatchObject({ code: 0 });
    expect(ranGates(repo)).toEqual(['packages/leaf-b:test']);
    expect(lastStop(repo)?.gates?.[0]).toMatchObject({ name: 'packages/leaf-b:test', status: 'passed' });
  });
});
