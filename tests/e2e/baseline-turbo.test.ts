import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, stop } from '../helpers/run-bin.js';
import { PACKAGES, TEST_HEAD } from '../helpers/acme-turbo-packages.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';

// Issue 31 point 3: a turbo gate's baseline check ran the full `turbo run test` over every package,
// cold. Now it runs the failing packages only (--filter=PKG) and reads the work tree's turbo cache
// (--cache=local:r --cache-dir=…), never writing to it.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

// Each test task runs after its dependencies' tests (turbo `dependsOn: ['^test']`).
function workspace(preset: 'turbo-test' | 'nx-test'): Record<string, string> {
  const files: Record<string, string> = {
    '.gitignore': 'node_modules/\n.turbo/\n.nx/\n',
    'package.json': json({ name: 'acme', private: true, packageManager: 'npm@10.9.0', workspaces: ['packages/*', 'apps/*'] }),
    ...(preset === 'turbo-test' ? { 'turbo.json': json({ tasks: { test: { dependsOn: ['^test'] } } }) } : { 'nx.json': json({ targetDefaults: { test: { cache: true } } }) }),
    'gate.config.json': json({ gates: [{ name: 'test', preset }] }),
  };
  const lock: Record<string, unknown> = { '': { name: 'acme', workspaces: ['packages/*', 'apps/*'] } };
  for (const [name, pkg] of Object.entries(PACKAGES)) {
    const dependencies = Object.fromEntries(pkg.deps.map((dep) => [dep, '*']));
    files[`${pkg.dir}/package.json`] = json({ name, version: '1.0.0', private: true, main: 'index.js', scripts: { test: 'node --test' }, dependencies });
    files[`${pkg.dir}/index.js`] = pkg.source;
    files[`${pkg.dir}/test/index.test.js`] = pkg.test;
    lock[pkg.dir] = { name, version: '1.0.0', dependencies };
    lock[`node_modules/${name}`] = { resolved: pkg.dir, link: true };
  }
  files['package-lock.json'] = json({ name: 'acme', lockfileVersion: 3, requires: true, packages: lock });
  return files;
}

/** node_modules as `npm install` links a workspace (nothing is fetched): its packages, and this checkout's turbo and nx. */
function setUp(preset: 'turbo-test' | 'nx-test' = 'turbo-test'): TempRepo {
  const made = makeRepo(workspace(preset), { commit: false });
  const link = (path: string, target: string) => {
    const full = join(made.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    symlinkSync(relative(dirname(full), target), full);
  };
  for (const [name, pkg] of Object.entries(PACKAGES)) link(`node_modules/${name}`, join(made.dir, pkg.dir));
  link('node_modules/turbo', join(PROJECT_ROOT, 'node_modules', 'turbo'));
  link('node_modules/.bin/turbo', join(made.dir, 'node_modules', 'turbo', 'bin', 'turbo'));
  link('node_modules/nx', join(PROJECT_ROOT, 'node_modules', 'nx'));
  link('node_modules/.bin/nx', join(made.dir, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'));
  made.commit('initial');
  Object.assign(made.env, { TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', npm_config_update_notifier: 'false' });
  return made;
}

const turbo = (...args: string[]) => execFileSync(join(repo.dir, 'node_modules', '.bin', 'turbo'), args, { cwd: repo.dir, env: repo.env, encoding: 'utf8' });
const baselineLog = () => readFileSync(join(repo.dir, '.git', 'gate', 'logs', 'test.baseline.log'), 'utf8');
const liveCache = () => readdirSync(join(repo.dir, '.turbo', 'cache')).sort();

describe('a turbo gate\'s baseline check', () => {
  it('runs only the failing package, replays what the live cache holds for unchanged inputs, and writes nothing into it', () => {
    repo = setUp();
    // Someone ran lib's tests on this commit: the live cache holds lib#test, not web#test.
    turbo('run', 'test', '--filter=@acme/lib', '--ui=stream', '--no-update-notifier');
    const cached = liveCache();
    expect(cached.length).toBeGreaterThan(0);
    promptStart(repo);
    repo.write('apps/web/index.js', "const { add } = require('@acme/lib');\n\nexports.total = (prices) => prices.reduce(add, 1);\n");
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('totals the cart');
    expect(result.stderr).not.toContain('Could not tell');
    expect(result.stderr).not.toContain('Already failing');
    const log = baselineLog();
    // The failing package alone (its task's dependency, lib#test, with it), not all four.
    expect(log).toMatch(/Packages in scope: @acme\/web\n/);
    expect(log).toMatch(/Tasks: +2 successful, 2 total/);
    // lib's inputs are the commit's: a hit from the live cache. web's test ran and passed, and no
    // entry of it was written there (the turn's web#test failed: turbo caches no failure either).
    expect(log).toMatch(/Cached: +1 cached, 2 total/);
    expect(liveCache()).toEqual(cached);
  });

  /** leaf's test is red at the start; the turn touches only leaf's source: a failure from before. */
  const stopOnOldLeafFailure = (r: TempRepo) => {
    r.write('packages/leaf/test/index.test.js', `${TEST_HEAD}const { shout } = require('../index.js');\n\ntest('shouts', () => assert.equal(shout('hi'), 'HI'));\n`);
    r.commit('leaf expects no exclamation mark');
    promptStart(r);
    r.write('packages/leaf/index.js', "exports.shout = (word) => `${word.toUpperCase()}!`; // louder\n");
    return stop(r);
  };

  it('names a failure the baseline had too, from the failing packages\' run alone', () => {
    repo = setUp();
    const result = stopOnOldLeafFailure(repo);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/test still failing, but only with failures from before this turn/);
    expect(baselineLog()).toMatch(/Packages in scope: @acme\/leaf\n/);
    expect(baselineLog()).toMatch(/Tasks: +0 successful, 1 total/);
  });

  it('nx: runs only the failing project (--projects=NAME)', () => {
    repo = setUp('nx-test');
    const result = stopOnOldLeafFailure(repo);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/test still failing, but only with failures from before this turn/);
    expect(baselineLog().match(/> nx run \S+/g)).toEqual(['> nx run @acme/leaf:test']);
  });
});
