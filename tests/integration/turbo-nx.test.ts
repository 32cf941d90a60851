import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import type { Filtered } from '../../src/filters/filter.js';
import { filterOutput } from '../../src/filters/filter-output.js';
import { build, presetGate, run } from '../helpers/fast-tier.js';
import { PACKAGES } from '../helpers/acme-turbo-packages.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';

// The real turbo and nx of this repository's devDependencies, in an npm workspace laid out as
// `npm install` would link it (no install runs, nothing is fetched): lib, two apps on top of it
// (web, api) and a leaf nothing depends on.
// web's test asserts on the line that declares it: the reported test and the failing assertion share a file:line.
const WEB_TEST_LINE = (PACKAGES['@acme/web']?.test.split('\n').findIndex((line) => line.startsWith('test(')) ?? -1) + 1;

// The server below answers in this process: a synchronous child would block it.
const exec = promisify(execFile);
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function workspaceFiles(): Record<string, string> {
  const files: Record<string, string> = {
    '.gitignore': 'node_modules/\n.turbo/\n.nx/\n',
    'package.json': json({ name: 'acme', private: true, packageManager: 'npm@10.9.0', workspaces: ['packages/*', 'apps/*'], scripts: { test: 'turbo run test' } }),
    'turbo.json': json({ $schema: 'https://turborepo.dev/schema.json', tasks: { test: {} } }),
    'nx.json': json({ targetDefaults: { test: { cache: true } } }),
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

function link(repo: TempRepo, path: string, target: string): void {
  const full = join(repo.dir, path);
  mkdirSync(dirname(full), { recursive: true });
  symlinkSync(relative(dirname(full), target), full);
}

// A git that writes down how it was called, in front of the real one: neither tool may ask git what changed.
const fakes = mkdtempSync(join(tmpdir(), 'gate-turbo-nx-'));
const gitLog = join(fakes, 'git.log');
const realGit = (process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'git')).find((path) => existsSync(path)) ?? '/usr/bin/git';
mkdirSync(join(fakes, 'bin'));
writeFileSync(join(fakes, 'bin', 'git'), `#!/bin/sh\necho "$*" >> '${gitLog}'\nexec '${realGit}' "$@"\n`);
chmodSync(join(fakes, 'bin', 'git'), 0o755);

// A remote cache on the loopback interface that answers like Turborepo's and Nx's (a miss for every
// read, OK for every write) and writes down each request.
const requests: string[] = [];
let server: Server;
let api = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests.push(`${request.method} ${request.url?.split('?')[0]}`);
      if (request.method === 'GET' && request.url?.startsWith('/v8/artifacts/status')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"enabled"}');
      } else if (request.method === 'GET' || request.method === 'HEAD') response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  api = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let repo: TempRepo;
afterEach(() => repo?.cleanup());
afterAll(() => rmSync(fakes, { recursive: true, force: true }));

function setUp(preset: 'turbo-test' | 'nx-test', extraEnv: Record<string, string> = {}) {
  repo = makeRepo(workspaceFiles(), { commit: false });
  for (const [name, pkg] of Object.entries(PACKAGES)) link(repo, `node_modules/${name}`, join(repo.dir, pkg.dir));
  link(repo, 'node_modules/turbo', join(PROJECT_ROOT, 'node_modules', 'turbo'));
  link(repo, 'node_modules/nx', join(PROJECT_ROOT, 'node_modules', 'nx'));
  link(repo, 'node_modules/.bin/turbo', join(repo.dir, 'node_modules', 'turbo', 'bin', 'turbo'));
  link(repo, 'node_modules/.bin/nx', join(repo.dir, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'));
  repo.commit('initial');
  // Offline and quiet: no telemetry, no npm update check.
  const env = { PATH: `${join(fakes, 'bin')}${delimiter}${repo.env['PATH'] ?? ''}`, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', npm_config_update_notifier: 'false', ...extraEnv };
  writeFileSync(gitLog, '');
  return { gate: presetGate(repo.dir, preset, env, 'test'), env: { ...repo.env, ...env } };
}

// packages/lib's add now rounds a sum up when the second number is above 2; lib's own test still passes,
// and so does api's, but web (never touched) totals [1, 2, 3] to 7.
const breakLib = () => repo.write('packages/lib/index.js', 'exports.add = (a, b) => a + b + (b > 2 ? 1 : 0);\n');
const gitQueries = () => readFileSync(gitLog, 'utf8').split('\n').filter((line) => /^(?:merge-base|diff|log|status|ls-files)\b/.test(line));

/**
 * What the agent reads: the package and task, the test, where it is and why it failed. A bare
 * `node --test` prints TAP when its output is not a terminal, as under turbo and Nx in a gate —
 * up to Node 22; Node 23 and later print the spec reporter's tree there too.
 */
function expectWebBroken(report: Filtered): void {
  const testFile = join(repo.dir, 'apps/web/test/index.test.js');
  const values = { message: 'AssertionError: Expected values to be strictly equal:', expected: '6', received: '7' };
  expect(report.items[0]?.join('\n')).toContain('7 !== 6');
  if (NODE_PRINTS_TAP) {
    expect(report.items.map((item) => item[0])).toEqual(['@acme/web:test: not ok totals the cart']);
    expect(report.items[0]).toContain(`  location: '${testFile}:${WEB_TEST_LINE}:1'`);
    expect(report.failures).toEqual([{ id: `@acme/web > ${testFile} > totals the cart`, file: testFile, line: WEB_TEST_LINE, ...values }]);
  } else {
    expect(report.items.map((item) => item[0])).toEqual([`@acme/web:test: ✖ totals the cart (test/index.test.js:${WEB_TEST_LINE}:1)`]);
    // Named from the folder the task ran in (turbo's `command (DIR)`, npm's `npm error path DIR`).
    expect(report.failures).toEqual([{ id: '@acme/web > test/index.test.js > totals the cart', file: testFile, line: WEB_TEST_LINE, ...values, message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:' }]);
  }
}

// The node the tasks run with (the first on PATH), as the matrix runs other majors.
const NODE_PRINTS_TAP = Number(/^v(\d+)/.exec(execFileSync('node', ['--version'], { encoding: 'utf8' }))?.[1] ?? 0) < 23;

const preset = (id: string) => {
  const found = loadPresets().get(id);
  if (!found) throw new Error(`no preset ${id}`);
  return found;
};

describe('turbo-test: the packages holding the change and their dependents, through turbo', () => {
  it('runs only the leaf task for a change in the leaf', async () => {
    const { gate, env } = setUp('turbo-test');
    repo.write('packages/leaf/index.js', 'exports.shout = (word) => `${word.toUpperCase()}!`; // louder\n');
    const command = await build(repo.dir, gate, ['packages/leaf/index.js']);
    expect(command).toMatchObject({
      argv: [...preset('turbo-test').run, '--filter=...@acme/leaf'],
      fast: true,
      why: 'only @acme/leaf and the packages that depend on them (1 of 4 packages changed)',
    });
    const result = await run(repo.dir, gate, ['packages/leaf/index.js'], env);
    expect(result.status).toBe('passed');
    expect(result.output).toMatch(/Packages in scope: @acme\/leaf\n/);
    expect(result.output).toMatch(/Tasks: +1 successful, 1 total/);
    expect(gitQueries()).toEqual([]);
  });

  it('runs the library and its dependents for a change in the library, and names the dependent it broke', async () => {
    const { gate, env } = setUp('turbo-test');
    breakLib();
    const command = await build(repo.dir, gate, ['packages/lib/index.js']);
    expect(command.argv.at(-1)).toBe('--filter=...@acme/lib');
    const result = await run(repo.dir, gate, ['packages/lib/index.js'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/Packages in scope: @acme\/api, @acme\/lib, @acme\/web\n/);
    expectWebBroken(filterOutput(gate.filter, result.output));
    expect(filterOutput(gate.filter, result.output).summary).toContain('Failed: @acme/web#test');
    expect(gitQueries()).toEqual([]);
  });

  it('runs every package for gate check --all and for a root file', async () => {
    const { gate, env } = setUp('turbo-test');
    expect((await build(repo.dir, gate, ['packages/leaf/index.js'], true)).argv).toEqual(preset('turbo-test').run);
    expect(await build(repo.dir, gate, ['package-lock.json'])).toMatchObject({ argv: preset('turbo-test').run, fast: false, why: 'package-lock.json changed, which affects every package' });
    const result = await run(repo.dir, gate, [], env, true);
    expect(result.status).toBe('passed');
    expect(result.output).toMatch(/Tasks: +4 successful, 4 total/);
  });

  it('reads a remote cache and never writes to it (--cache=local:rw,remote:r)', async () => {
    const { gate, env } = setUp('turbo-test', { TURBO_API: api, TURBO_TOKEN: 'gate-test', TURBO_TEAM: 'acme' });
    repo.write('packages/leaf/index.js', 'exports.shout = (word) => `${word.toUpperCase()}!`; // cached or not\n');
    requests.length = 0;
    const result = await run(repo.dir, gate, ['packages/leaf/index.js'], env);
    expect(result.status).toBe('passed');
    expect(result.output).toContain('Remote caching enabled (read-only)');
    expect(requests).toContain('GET /v8/artifacts/status');
    expect(requests.some((line) => /^GET \/v8\/artifacts\/[0-9a-f]+$/.test(line))).toBe(true);
    expect(requests.filter((line) => line.startsWith('PUT'))).toEqual([]);
    // The same task without the flag uploads its result: the server is one turbo writes to.
    requests.length = 0;
    rmSync(join(repo.dir, '.turbo'), { recursive: true, force: true });
    await exec(join(repo.dir, 'node_modules', '.bin', 'turbo'), ['run', 'test', '--filter=@acme/leaf'], { cwd: repo.dir, env });
    expect(requests.some((line) => line.startsWith('PUT /v8/artifacts/'))).toBe(true);
  });
});

describe("nx-test: the projects holding the change and their dependents, from Nx's project graph", () => {
  it('leaves a self-hosted remote cache alone (Nx has no read-only mode: --skipRemoteCache)', async () => {
    const { gate, env } = setUp('nx-test', { NX_SELF_HOSTED_REMOTE_CACHE_SERVER: api, NX_SELF_HOSTED_REMOTE_CACHE_ACCESS_TOKEN: 'gate-test' });
    requests.length = 0;
    const result = await run(repo.dir, gate, ['packages/leaf/index.js'], env);
    expect(result.status).toBe('passed');
    expect(requests).toEqual([]);
    // Without the flag Nx reads and writes it.
    rmSync(join(repo.dir, '.nx'), { recursive: true, force: true });
    await exec(join(repo.dir, 'node_modules', '.bin', 'nx'), ['run-many', '--targets=test', '--projects=@acme/leaf', '--outputStyle=static'], { cwd: repo.dir, env: { ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' } });
    expect(requests.some((line) => line.startsWith('PUT /v1/cache/'))).toBe(true);
  });

  it('runs only the leaf target for a change in the leaf', async () => {
    const { gate, env } = setUp('nx-test');
    const command = await build(repo.dir, gate, ['packages/leaf/index.js']);
    expect(command).toMatchObject({
      argv: [...preset('nx-test').run, '--projects=@acme/leaf'],
      fast: true,
      why: 'only 1 of 4 projects: @acme/leaf (the changed ones and those that depend on them)',
    });
    expect(command.argv[0]).toBe('nx');
    // No daemon left running after the stop, no Nx Cloud: from the preset's env, under the gate's own.
    expect(gate.env).toMatchObject({ NX_DAEMON: 'false', NX_NO_CLOUD: 'true' });
    expect(command.argv).toContain('--skipRemoteCache');
    const result = await run(repo.dir, gate, ['packages/leaf/index.js'], env);
    expect(result.status).toBe('passed');
    expect(result.output.match(/> nx run \S+/g)).toEqual(['> nx run @acme/leaf:test']);
    expect(readFileSync(gitLog, 'utf8')).toBe('');
  });

  it('runs the library and the projects that depend on it, and names the dependent it broke', async () => {
    const { gate, env } = setUp('nx-test');
    breakLib();
    const command = await build(repo.dir, gate, ['packages/lib/index.js']);
    expect(command.argv.at(-1)).toBe('--projects=@acme/api,@acme/lib,@acme/web');
    const result = await run(repo.dir, gate, ['packages/lib/index.js'], env);
    expect(result.status).toBe('failed');
    expect(result.output.match(/> nx run \S+/g)?.sort()).toEqual(['> nx run @acme/api:test', '> nx run @acme/lib:test', '> nx run @acme/web:test']);
    expectWebBroken(filterOutput(gate.filter, result.output));
    expect(filterOutput(gate.filter, result.output).summary).toContain('Failed tasks: @acme/web:test');
    expect(readFileSync(gitLog, 'utf8')).toBe('');
  });

  it('runs every project for gate check --all', async () => {
    const { gate, env } = setUp('nx-test');
    expect((await build(repo.dir, gate, ['packages/leaf/index.js'], true)).argv).toEqual(preset('nx-test').run);
    const result = await run(repo.dir, gate, [], env, true);
    expect(result.status).toBe('passed');
    expect(result.output.match(/> nx run \S+/g)).toHaveLength(4);
  });
});
