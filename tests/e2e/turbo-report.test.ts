import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';

// Issue 31 point 5: after core's test failed, turbo (--continue=dependencies-successful) skipped the
// tasks that wait on it and said only "Tasks: 0 successful, 1 total"; vitest named the failing test
// from its root (`test.root: './test'` in the package), a path the agent at the repository root
// cannot open. The report names the tasks that never ran, and the file from the repository.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const PACKAGES = { core: [], vue: ['@acme/core'], react: ['@acme/core'], leaf: [] } as const;
const TEST = "import { expect, test } from 'vitest';\nimport { add } from '../index.js';\n\ntest('adds', () => {\n  expect(add(2, 2)).toBe(4);\n});\n";

/** A real npm workspace laid out as `npm install` links it (nothing installed): the real turbo and vitest of this checkout. */
function workspace(): TempRepo {
  const files: Record<string, string> = {
    '.gitignore': 'node_modules/\n.turbo/\n',
    'package.json': json({ name: 'acme', private: true, packageManager: 'npm@10.9.0', workspaces: ['packages/*'] }),
    'turbo.json': json({ tasks: { test: { dependsOn: ['^test'] } } }),
    'gate.config.json': json({ gates: [{ name: 'test', preset: 'turbo-test' }] }),
    'packages/core/vitest.config.js': "export default { test: { root: './test' } };\n",
  };
  const lock: Record<string, unknown> = { '': { name: 'acme', workspaces: ['packages/*'] } };
  for (const [name, deps] of Object.entries(PACKAGES)) {
    const dependencies = Object.fromEntries(deps.map((dep) => [dep, '*']));
    files[`packages/${name}/package.json`] = json({ name: `@acme/${name}`, version: '1.0.0', private: true, type: 'module', scripts: { test: 'vitest run' }, dependencies });
    files[`packages/${name}/index.js`] = 'export const add = (a, b) => a + b;\n';
    files[`packages/${name}/test/index.test.js`] = TEST;
    lock[`packages/${name}`] = { name: `@acme/${name}`, version: '1.0.0', dependencies };
    lock[`node_modules/@acme/${name}`] = { resolved: `packages/${name}`, link: true };
  }
  files['package-lock.json'] = json({ name: 'acme', lockfileVersion: 3, requires: true, packages: lock });
  const made = makeRepo(files, { commit: false });
  const link = (path: string, target: string) => {
    const full = join(made.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    symlinkSync(relative(dirname(full), target), full);
  };
  for (const name of Object.keys(PACKAGES)) link(`node_modules/@acme/${name}`, join(made.dir, 'packages', name));
  for (const tool of ['turbo', 'vitest']) link(`node_modules/${tool}`, join(PROJECT_ROOT, 'node_modules', tool));
  link('node_modules/.bin/turbo', join(made.dir, 'node_modules/turbo/bin/turbo'));
  link('node_modules/.bin/vitest', join(made.dir, 'node_modules/vitest/vitest.mjs'));
  made.commit('initial');
  return made;
}

describe('a turbo gate whose library test fails', () => {
  it('names the tasks turbo skipped because of it, and the failing file from the repository', () => {
    repo = workspace();
    const at = { dir: repo.dir, env: { ...repo.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', npm_config_update_notifier: 'false' } };
    promptStart(at);
    repo.write('packages/core/index.js', 'export const add = (a, b) => a - b;\n');
    const result = stop(at);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Failed: @acme/core#test');
    expect(result.stderr).toContain('Not run because @acme/core#test failed: @acme/react#test, @acme/vue#test');
    // vitest said `index.test.js:5:21`, from packages/core/test (its root).
    expect(result.stderr).toContain('@acme/core:test: FAIL packages/core/test/index.test.js > adds');
    expect(result.stderr).toContain('❯ packages/core/test/index.test.js:5:21');
    // The failing file is one that was there throughout: the gate is not run again as if another gate had made it.
    expect(result.stdout).toContain('refused the stop');
    expect(result.stdout).not.toMatch(/appeared or vanished/);
  });
});
