import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import { parseNxGraph } from '../../src/fast/nx-graph.js';
import { planNxProjects, selectNxProjects } from '../../src/fast/nx-projects.js';
import { parseTurboLs, planTurboPackages, selectTurboPackages } from '../../src/fast/turbo-packages.js';
import { filterOutput } from '../../src/filters/filter-output.js';
import { detectTool } from '../../src/filters/task-runner/detect-tool.js';
import { managerDir, tidyTask } from '../../src/filters/task-runner/tidy-task.js';
import { describeNotRun, graphLines } from '../../src/filters/task-runner/turbo-graph.js';
import { placeTaskPaths } from '../../src/report/place-task-paths.js';
import { skipsDependents } from '../../src/runner/turbo-dry-run.js';
import { presetGate } from '../helpers/fast-tier.js';

const fixture = (tool: 'turbo' | 'nx', name: string) => readFileSync(new URL(`../fixtures/outputs/${tool}/${name}`, import.meta.url), 'utf8');
const kept = (tool: 'turbo' | 'nx', name: string) => {
  const result = filterOutput(tool, fixture(tool, `${name}.txt`));
  return [...result.items.flat(), ...result.summary].join('\n');
};

const RUN = ['tool', '{files}'];
const PACKAGES = parseTurboLs(fixture('turbo', 'ls.json'));
const PROJECTS = parseNxGraph(fixture('nx', 'graph.txt'));

describe('turbo-packages: the packages holding the change, each with its dependents (--filter=...NAME)', () => {
  it('reads the packages and their folders from turbo ls', () => {
    expect(PACKAGES).toEqual([
      { name: '@shop/api', dir: 'apps/api' },
      { name: '@shop/leaf', dir: 'packages/leaf' },
      { name: '@shop/lib', dir: 'packages/lib' },
      { name: '@shop/web', dir: 'apps/web' },
    ]);
  });

  it('names only the leaf for a change in the leaf', () => {
    expect(selectTurboPackages(['packages/leaf/index.js', 'packages/leaf/test/id.test.js'], PACKAGES, RUN)).toEqual({
      kind: 'fast',
      run: RUN,
      targets: ['--filter=...@shop/leaf'],
      why: 'only @shop/leaf and the packages that depend on them (1 of 4 packages changed)',
    });
  });

  it('names the shared library with the ... prefix, which has turbo add the apps that depend on it', () => {
    const plan = selectTurboPackages(['packages/lib/index.js', 'packages/leaf/index.js'], PACKAGES, RUN);
    expect(plan).toMatchObject({ kind: 'fast', targets: ['--filter=...@shop/leaf', '--filter=...@shop/lib'] });
  });

  it('runs everything for a file in no package, or when every package changed', () => {
    expect(selectTurboPackages(['scripts/release.js'], PACKAGES, RUN)).toEqual({ kind: 'full', why: 'scripts/release.js is in no package' });
    const all = ['apps/api/index.js', 'apps/web/index.js', 'packages/lib/index.js', 'packages/leaf/index.js'];
    expect(selectTurboPackages(all, PACKAGES, RUN)).toEqual({ kind: 'full', why: 'every one of the 4 packages changed' });
  });

  it('gives a nested package the files under it, not its parent', () => {
    const nested = [...PACKAGES, { name: '@shop/lib-extra', dir: 'packages/lib/extra' }];
    expect(selectTurboPackages(['packages/lib/extra/x.js'], nested, RUN)).toMatchObject({ targets: ['--filter=...@shop/lib-extra'] });
  });

  it('rejects what is not turbo ls output', () => {
    expect(() => parseTurboLs('{"packages": {}}')).toThrow(/packages\.items/);
    expect(() => parseTurboLs('{"packages": {"items": [{"name": "a"}]}}')).toThrow(/name and a path/);
  });
});

describe('nx-projects: the projects holding the change and those that depend on them, from Nx project graph', () => {
  it('reads the projects, their roots and dependencies after the mark', () => {
    expect(PROJECTS).toContainEqual({ name: '@shop/web', dir: 'apps/web', deps: ['@shop/lib'] });
    expect(PROJECTS).toHaveLength(4);
  });

  it('runs only the leaf for a change in the leaf', () => {
    expect(selectNxProjects(['packages/leaf/index.js'], PROJECTS, RUN)).toEqual({
      kind: 'fast',
      run: RUN,
      targets: ['--projects=@shop/leaf'],
      why: 'only 1 of 4 projects: @shop/leaf (the changed ones and those that depend on them)',
    });
  });

  it('runs the shared library and the projects that depend on it', () => {
    expect(selectNxProjects(['packages/lib/index.js'], PROJECTS, RUN)).toMatchObject({
      kind: 'fast',
      targets: ['--projects=@shop/api,@shop/lib,@shop/web'],
      why: 'only 3 of 4 projects: @shop/api, @shop/lib and @shop/web (the changed ones and those that depend on them)',
    });
  });

  it('follows dependents transitively, and ignores dependencies on npm packages', () => {
    const chain = [
      { name: 'core', dir: 'libs/core', deps: ['npm:lodash'] },
      { name: 'ui', dir: 'libs/ui', deps: ['core'] },
      { name: 'app', dir: 'apps/app', deps: ['ui'] },
      { name: 'other', dir: 'apps/other', deps: [] },
    ];
    expect(selectNxProjects(['libs/core/src/a.ts'], chain, RUN)).toMatchObject({ targets: ['--projects=app,core,ui'] });
  });

  it('runs everything for a file in no project, or when every project is reached', () => {
    expect(selectNxProjects(['tools/x.js'], PROJECTS, RUN)).toEqual({ kind: 'full', why: 'tools/x.js is in no project' });
    const everyProject = selectNxProjects(['packages/lib/a.js', 'packages/leaf/a.js'], PROJECTS, RUN);
    expect(everyProject).toEqual({ kind: 'full', why: 'all 4 projects reach the change' });
  });

  it('gives a root project (root ".") the files no other project holds', () => {
    const withRoot = [...PROJECTS, { name: 'shop', dir: '.', deps: [] }];
    expect(selectNxProjects(['tools/x.js'], withRoot, RUN)).toMatchObject({ targets: ['--projects=shop'] });
    expect(selectNxProjects(['packages/leaf/a.js'], withRoot, RUN)).toMatchObject({ targets: ['--projects=@shop/leaf'] });
  });

  it('rejects output without the graph', () => {
    expect(() => parseNxGraph('NX  something went wrong')).toThrow(/no project graph/);
  });
});

describe('the planners before they ask the tool', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const gateIn = (preset: string, files: Record<string, string>) => {
    dir = mkdtempSync(join(tmpdir(), 'gate-turbo-nx-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const gate = presetGate(dir, preset, {});
    const tier = gate.tier;
    if (!tier) throw new Error('no tier');
    return { ...gate, tier };
  };

  it('runs everything for a root lockfile, turbo.json, nx.json or the root package.json', async () => {
    const turbo = gateIn('turbo-test', { 'turbo.json': '{}' });
    for (const file of ['package-lock.json', 'turbo.json', 'package.json', 'pnpm-lock.yaml', 'tsconfig.base.json']) {
      expect(await planTurboPackages({ gate: turbo, files: ['packages/lib/a.js', file], mode: 'fast' })).toEqual({ kind: 'full', why: `${file} changed, which affects every package` });
    }
    rmSync(dir, { recursive: true, force: true });
    const nx = gateIn('nx-lint', { 'nx.json': '{}' });
    for (const file of ['nx.json', 'yarn.lock', 'package.json']) {
      expect(await planNxProjects({ gate: nx, files: [file], mode: 'fast' })).toEqual({ kind: 'full', why: `${file} changed, which affects every project` });
    }
  });

  it('runs everything outside the workspace root, for --all and with nothing to narrow to', async () => {
    const turbo = gateIn('turbo-lint', {});
    expect(await planTurboPackages({ gate: turbo, files: ['src/a.ts'], mode: 'fast' })).toMatchObject({ kind: 'full', why: expect.stringMatching(/not run at the Turborepo root/) });
    expect(await planTurboPackages({ gate: turbo, files: ['src/a.ts'], mode: 'full' })).toEqual({ kind: 'full', why: 'the full run' });
    expect(await planNxProjects({ gate: { ...turbo, tier: { ...turbo.tier, by: 'nx-projects' } }, files: ['src/a.ts'], mode: 'fast' })).toMatchObject({ why: expect.stringMatching(/no nx\.json here/) });
    expect(await planNxProjects({ gate: turbo, files: [], mode: 'fast' })).toEqual({ kind: 'full', why: 'no changed file to narrow the run to' });
  });
});

describe('turbo filter: each failed task through its own tool filter', () => {
  it('names the package and task, the test and its file:line, per tool (vitest, mocha)', () => {
    const result = filterOutput('turbo', fixture('turbo', 'test-dependents.txt'));
    expect(result.items.map((item) => item[0])).toEqual(['@shop/api:test: FAIL net > takes the fee off', '@shop/web:test: FAIL test/total.test.js > total > sums the cart']);
    expect(result.failures).toEqual([
      { id: '@shop/api > test/net.test.js > net > takes the fee off', file: '/tmp/gate-tn/apps/api/test/net.test.js', line: 4, message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', expected: '7', received: '8' },
      { id: '@shop/web > test/total.test.js > total > sums the cart', file: '/tmp/gate-tn/apps/web/test/total.test.js', line: 4, message: 'AssertionError: expected 8 to be 7 // Object.is equality', expected: '7', received: '8' },
    ]);
    expect(result.summary.slice(-2)).toEqual(['Tasks: 1 successful, 3 total', 'Failed: @shop/api#test, @shop/web#test']);
    expect(kept('turbo', 'test-dependents')).toContain('at Context.<anonymous> (test/net.test.js:4:42)');
  });

  it("keeps node --test's location and the assertion", () => {
    const result = filterOutput('turbo', fixture('turbo', 'test-leaf.txt'));
    expect(result.items[0]?.slice(0, 3)).toEqual(['@shop/leaf:test: ✖ identity (test/id.test.js:4:1)', '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', '  5 !== 4']);
    expect(result.failures.map((failure) => failure.id)).toEqual(['@shop/leaf > test/id.test.js > identity']);
  });

  it('drops the cache status, the script echo, npm errors, turbo warnings and timings', () => {
    const text = kept('turbo', 'test-dependents');
    for (const noise of ['cache miss', 'executing', '> @shop/api@1.0.0 test', '> mocha', 'npm error', 'WARNING', 'continuing', 'Cached:', 'Time:', 'Start at', 'Duration', 'turbo 2.11', 'Remote caching']) {
      expect(text).not.toContain(noise);
    }
  });

  it('filters tsc, ESLint and Biome output per package', () => {
    const typecheck = filterOutput('turbo', fixture('turbo', 'typecheck.txt')).failures;
    expect(typecheck.map((failure) => `${failure.id.split(': ')[0]} ${failure.line}`).sort()).toEqual(['@shop/lib > types.ts TS2339 2', '@shop/web > types.ts TS2322 1']);
    const lint = filterOutput('turbo', fixture('turbo', 'lint.txt'));
    expect(lint.noun).toBe('problems');
    expect(lint.failures.map((failure) => failure.id)).toContain("@shop/api > /tmp/gate-tn/apps/api/index.js no-unused-vars: 'unused' is assigned a value but never used");
    expect(lint.failures.map((failure) => failure.id)).toContain('@shop/leaf > index.js lint/suspicious/noDoubleEquals: Using == may be unsafe if you are relying on type coercion.');
    expect(lint.failures.map((failure) => failure.id)).not.toContain('@shop/leaf > lint lint: Some errors were emitted while running checks.');
    expect(lint.items.map((item) => item[0])).toContain("@shop/api:lint: /tmp/gate-tn/apps/api/index.js:3:50  error  'missing' is not defined  no-undef");
  });

  it('reads the same failures under GitHub Actions grouping', () => {
    const plain = filterOutput('turbo', fixture('turbo', 'test-dependents.txt'));
    const grouped = filterOutput('turbo', fixture('turbo', 'github-actions.txt'));
    expect(grouped.items).toEqual(plain.items);
    expect(grouped.failures).toEqual(plain.failures);
  });

  it('takes a task name with a colon whole', () => {
    const result = filterOutput('turbo', fixture('turbo', 'colon-task.txt'));
    expect(result.items[0]?.[0]).toBe('@shop/leaf:test:unit: ✖ identity (test/id.test.js:4:1)');
    expect(result.failures[0]?.id).toBe('@shop/leaf > test/id.test.js > identity');
  });

  it('reports the failed library when its dependents did not run', () => {
    const result = filterOutput('turbo', fixture('turbo', 'skipped-dependents.txt'));
    expect(result.failures.map((failure) => failure.id)).toEqual(['@shop/lib > test/add.test.js > adds']);
  });

  it("keeps turbo's own error when no task ran", () => {
    expect(kept('turbo', 'missing-task')).toContain('Could not find task `check-types` in project');
  });

  it('still names the tasks of an output cut short at either end', () => {
    const lines = fixture('turbo', 'test-dependents.txt').split('\n');
    const headCut = lines.slice(lines.findIndex((line) => line.startsWith('@shop/web:test: cache miss')) + 1).join('\n');
    expect(filterOutput('turbo', headCut).failures.map((failure) => failure.id)).toEqual(['@shop/web > test/total.test.js > total > sums the cart']);
    const tailCut = lines.slice(0, lines.findIndex((line) => line.startsWith('@shop/web:test: npm error'))).join('\n');
    expect(filterOutput('turbo', tailCut).failures.map((failure) => failure.id)).toEqual(['@shop/api > test/net.test.js > net > takes the fee off', '@shop/web > test/total.test.js > total > sums the cart']);
  });

  it('names a failed task with no output by the command turbo says failed', () => {
    const raw = ['@acme/x:test: cache miss, executing 0123abcd', '@acme/x#test:  ERROR  command (/repo/x) /usr/bin/npm run test exited (1)', '', ' Tasks:    0 successful, 1 total', 'Failed:    @acme/x#test'].join('\n');
    expect(filterOutput('turbo', raw).items).toEqual([['@acme/x:test: command (/repo/x) /usr/bin/npm run test exited (1)']]);
  });
});

describe('turbo: the tasks it skipped after a failure (--continue=dependencies-successful)', () => {
  it("reads turbo's dry run: each task that waits on others, and on which", () => {
    expect(graphLines(fixture('turbo', 'dry-run.json'))).toEqual(['[gate: turbo task @acme/react#test after @acme/core#test]', '[gate: turbo task @acme/vue#test after @acme/core#test]']);
    expect(() => graphLines('{"id": "x"}')).toThrow(/no tasks list/);
  });

  it('names the tasks that never ran, under the failed task they wait on', () => {
    const result = filterOutput('turbo', fixture('turbo', 'not-run-vitest-root.txt'));
    expect(result.summary.slice(-3)).toEqual(['Tasks: 0 successful, 2 total', 'Failed: @acme/core#test, @acme/leaf#test', 'Not run because @acme/core#test failed: @acme/react#test, @acme/vue#test']);
    expect(result.items.map((item) => item[0])).toEqual(['@acme/leaf:test: FAIL test/index.test.js > adds', '@acme/core:test: FAIL index.test.js > adds']);
    expect(kept('turbo', 'not-run-vitest-root')).not.toContain('[gate:');
  });

  it('follows dependents through tasks that did not run either, each said once, many by count', () => {
    const graph = new Map([
      ['ui#build', ['core#build']],
      ['app#test', ['ui#build', 'core#build']],
      ['docs#test', ['other#build']],
    ]);
    expect(describeNotRun(graph, ['core#build', 'other#build'])).toEqual(['Not run because core#build failed: app#test, ui#build', 'Not run because other#build failed: docs#test']);
    const wide = new Map(Array.from({ length: 15 }, (_, index) => [`p${String(index).padStart(2, '0')}#test`, ['core#build']]));
    expect(describeNotRun(wide, ['core#build'])).toEqual([`Not run because core#build failed: ${Array.from({ length: 12 }, (_, index) => `p${String(index).padStart(2, '0')}#test`).join(', ')} and 3 more`]);
  });

  it('asks the dry run only of an argv turbo run that skips dependents', () => {
    const run = ['turbo', 'run', 'test', '--continue=dependencies-successful', '--filter=...@acme/core'];
    expect(skipsDependents(run, false)).toBe(true);
    expect(skipsDependents(['pnpm', 'turbo', 'run', 'test', '--continue', 'dependencies-successful'], false)).toBe(true);
    expect(skipsDependents(['turbo', 'run', 'test', '--continue'], false)).toBe(false);
    expect(skipsDependents(['turbo', 'run', 'test'], false)).toBe(false);
    expect(skipsDependents(run, true)).toBe(false);
    expect(skipsDependents([...run, '--dry=json'], false)).toBe(false);
  });
});

describe("a task's file paths, said from the project", () => {
  const files = new Set(['/tmp/gate-tn/packages/core/test/index.test.js', '/tmp/gate-tn/packages/leaf/test/index.test.js', '/tmp/gate-tn/packages/leaf/index.js']);
  const isFile = (path: string) => files.has(path);

  it("names a file from vitest's root or the task's package, where it is there", () => {
    const result = placeTaskPaths(filterOutput('turbo', fixture('turbo', 'not-run-vitest-root.txt')), ['/tmp/gate-tn'], isFile);
    expect(result.items.map((item) => item.filter((line) => /FAIL|❯|\|/.test(line)))).toEqual([
      ['@acme/leaf:test: FAIL packages/leaf/test/index.test.js > adds', '❯ packages/leaf/test/index.test.js:5:21', '5|   expect(add(2, 2)).toBe(4);'],
      ['@acme/core:test: FAIL packages/core/test/index.test.js > adds', '❯ packages/core/test/index.test.js:5:21', '5|   expect(add(2, 2)).toBe(4);'],
    ]);
    // Where the later checks look for it (files that came and went during the run, the tamper check).
    expect(result.failures.map((failure) => failure.file)).toEqual(['/tmp/gate-tn/packages/leaf/test/index.test.js', '/tmp/gate-tn/packages/core/test/index.test.js']);
    expect(result.failures.map((failure) => failure.id)).toEqual(['@acme/leaf > test/index.test.js > adds', '@acme/core > index.test.js > adds']);
  });

  it('leaves a path that is no file there, or outside the project, as printed', () => {
    const filtered = filterOutput('turbo', fixture('turbo', 'not-run-vitest-root.txt'));
    expect(placeTaskPaths(filtered, ['/tmp/gate-tn'], () => false).items).toEqual(filtered.items);
    expect(placeTaskPaths(filtered, ['/elsewhere'], isFile).items).toEqual(filtered.items);
    expect(placeTaskPaths({ ...filtered, itemDirs: undefined }, ['/tmp/gate-tn'], isFile).items).toEqual(filtered.items);
  });

  it('names tsc and mocha files from the package too', () => {
    const typecheck = filterOutput('turbo', fixture('turbo', 'typecheck.txt'));
    const placed = placeTaskPaths(typecheck, ['/tmp/gate-tn'], (path) => path === '/tmp/gate-tn/apps/web/types.ts' || path === '/tmp/gate-tn/packages/lib/types.ts');
    expect(placed.items.map((item) => item[0]).sort()).toEqual([
      "@shop/lib:typecheck: packages/lib/types.ts(2,12): error TS2339: Property 'length' does not exist on type 'number'.",
      "@shop/web:typecheck: apps/web/types.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
    const mocha = placeTaskPaths(filterOutput('turbo', fixture('turbo', 'test-dependents.txt')), ['/tmp/gate-tn'], (path) => path === '/tmp/gate-tn/apps/api/test/net.test.js');
    expect(mocha.items.flat()).toContain('  at Context.<anonymous> (apps/api/test/net.test.js:4:42)');
  });

  it("names Nx's from the folder the package manager says the script ran in (npm error path, pnpm's echo)", () => {
    const here = (path: string) => ['/tmp/gate-tn/apps/api/test/net.test.js', '/tmp/gate-tn/packages/lib/types.ts'].includes(path);
    const test = placeTaskPaths(filterOutput('nx', fixture('nx', 'test-dependents.txt')), ['/tmp/gate-tn'], here);
    expect(test.items.flat()).toContain('  at Context.<anonymous> (apps/api/test/net.test.js:4:42)');
    expect(test.failures.map((failure) => failure.file)).toEqual(['/tmp/gate-tn/apps/api/test/net.test.js', '/tmp/gate-tn/apps/web/test/total.test.js']);
    const typecheck = placeTaskPaths(filterOutput('nx', fixture('nx', 'typecheck.txt')), ['/tmp/gate-tn'], here);
    expect(typecheck.items[0]).toEqual(["@shop/lib:typecheck: packages/lib/types.ts(2,12): error TS2339: Property 'length' does not exist on type 'number'."]);
    expect(managerDir(['> @acme/web@1.0.0 test /repo/apps/web', '> vitest run'])).toBe('/repo/apps/web');
  });
});

describe('nx filter: each failed task through its own tool filter', () => {
  it('reads the same failures as from turbo, from static output', () => {
    const result = filterOutput('nx', fixture('nx', 'test-dependents.txt'));
    expect(result.items).toEqual(filterOutput('turbo', fixture('turbo', 'test-dependents.txt')).items);
    expect(result.failures.map((failure) => failure.id)).toEqual(['@shop/api > test/net.test.js > net > takes the fee off', '@shop/web > test/total.test.js > total > sums the cart']);
    expect(result.summary.slice(-2)).toEqual(['Running target test for 3 projects failed', 'Failed tasks: @shop/api:test, @shop/web:test']);
  });

  it('leaves out the tasks that passed, colours, and the NO_COLOR warning', () => {
    const text = kept('nx', 'test-dependents');
    for (const noise of ['@shop/lib', '✔ adds', 'NO_COLOR', 'trace-warnings', 'nx run', 'npm error', 'Remote Cache Disabled', '\u001b']) {
      expect(text).not.toContain(noise);
    }
  });

  it('reads GitHub Actions groups, typecheck and lint', () => {
    expect(filterOutput('nx', fixture('nx', 'github-actions.txt')).failures).toEqual(filterOutput('nx', fixture('nx', 'test-dependents.txt')).failures);
    expect(filterOutput('nx', fixture('nx', 'typecheck.txt')).items).toEqual([
      ["@shop/lib:typecheck: types.ts(2,12): error TS2339: Property 'length' does not exist on type 'number'."],
      ["@shop/web:typecheck: types.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'."],
    ]);
    expect(filterOutput('nx', fixture('nx', 'lint.txt')).failures.map((failure) => failure.id)).toEqual(filterOutput('turbo', fixture('turbo', 'lint.txt')).failures.map((failure) => failure.id).sort(byPackageOrder(['@shop/leaf', '@shop/api', '@shop/web'])));
  });

  it('says which tasks did not run because a task they depend on failed', () => {
    const result = filterOutput('nx', fixture('nx', 'skipped-dependents.txt'));
    expect(result.failures.map((failure) => failure.id)).toEqual(['@shop/lib > test/add.test.js > adds']);
    expect(result.summary).toContain('Not run, a task they depend on failed: @shop/api:test, @shop/web:test');
  });

  it('without the closing list (a cut-off run), reports the tasks whose tool found a failure', () => {
    const text = fixture('nx', 'test-dependents.txt');
    const cut = text.slice(0, text.lastIndexOf(' NX   Running target test for 3 projects failed'));
    expect(filterOutput('nx', cut).failures.map((failure) => failure.id)).toEqual(['@shop/api > test/net.test.js > net > takes the fee off', '@shop/web > test/total.test.js > total > sums the cart']);
  });
});

describe('node --test under a task runner prints TAP (its output is not a terminal)', () => {
  it('reads it the same from turbo and from Nx, with the location and the assertion', () => {
    const turbo = filterOutput('turbo', fixture('turbo', 'tap-leaf.txt'));
    const nx = filterOutput('nx', fixture('nx', 'tap-leaf.txt'));
    expect(turbo.items[0]?.slice(0, 2)).toEqual(['@shop/leaf:test: not ok identity', "  location: '/tmp/gate-tn/packages/leaf/test/id.test.js:4:1'"]);
    expect(nx.items[0]?.slice(0, 2)).toEqual(turbo.items[0]?.slice(0, 2));
    expect(nx.failures).toEqual(turbo.failures);
    expect(turbo.failures).toEqual([{ id: '@shop/leaf > /tmp/gate-tn/packages/leaf/test/id.test.js > identity', file: '/tmp/gate-tn/packages/leaf/test/id.test.js', line: 4, message: 'AssertionError: Expected values to be strictly equal:', expected: '4', received: '5' }]);
    expect(kept('nx', 'tap-leaf')).not.toContain('NO_COLOR');
  });
});

describe("a task's tool, by what it printed", () => {
  it('tells the tools apart by their signatures, then by the script', () => {
    expect(detectTool([' RUN  v4.1.12 /repo/apps/web'], undefined)).toBe('vitest');
    expect(detectTool(['Test Suites: 1 failed, 1 total'], undefined)).toBe('jest');
    expect(detectTool(['ℹ tests 3'], undefined)).toBe('node-test');
    expect(detectTool(['  0 passing (12ms)'], undefined)).toBe('mocha');
    expect(detectTool(['src/a.ts(1,2): error TS2322: no'], undefined)).toBe('tsc');
    expect(detectTool(['index.js:2:5 lint/correctness/useIsNan  FIXABLE  ━━━━━━━━'], undefined)).toBe('biome');
    expect(detectTool(['✖ 2 problems (2 errors, 0 warnings)'], undefined)).toBe('eslint');
    expect(detectTool(['Error: Cannot find module'], 'vitest run')).toBe('vitest');
    expect(detectTool(['Segmentation fault'], 'make test')).toBe('generic');
  });

  it("takes the package manager's echo of the script off a task's start", () => {
    expect(tidyTask(['', '> @acme/web@1.0.0 test /repo/apps/web', '> vitest run', '', ' RUN  v4'])).toEqual({ lines: ['', ' RUN  v4'], script: 'vitest run' });
    expect(tidyTask(['$ jest --ci', 'PASS a.test.js'])).toEqual({ lines: ['PASS a.test.js'], script: 'jest --ci' });
  });
});

describe('the turbo and nx presets', () => {
  const presets = loadPresets();

  it('keep the remote cache read-only (turbo) or off (nx), and Nx without a daemon or Nx Cloud', () => {
    for (const id of ['turbo-test', 'turbo-lint', 'turbo-typecheck', 'turbo-check-types']) {
      const preset = presets.get(id);
      expect(preset?.run).toContain('--cache=local:rw,remote:r');
      expect(preset?.related?.run).toContain('--cache=local:rw,remote:r');
      expect(preset?.related?.by).toBe('turbo-packages');
      expect(preset?.filter).toBe('turbo');
    }
    for (const id of ['nx-test', 'nx-lint', 'nx-typecheck']) {
      const preset = presets.get(id);
      expect(preset?.run[0]).toBe('nx');
      expect(preset?.env).toEqual({ NX_DAEMON: 'false', NX_NO_CLOUD: 'true' });
      expect(preset?.run).toContain('--skipRemoteCache');
      expect(preset?.related?.run.at(-1)).toBe('{files}');
      expect(preset?.related?.by).toBe('nx-projects');
      expect(preset?.filter).toBe('nx');
    }
  });
});

function byPackageOrder(order: string[]) {
  const rank = (id: string) => order.findIndex((name) => id.startsWith(`${name} >`));
  return (a: string, b: string) => rank(a) - rank(b);
}
