import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import type { Filtered } from '../../src/filters/filter.js';
import { presetGate } from './fast-tier.js';
import { PACKAGES } from './acme-turbo-packages.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from './temp-repo.js';

// The real turbo and nx of this repository's devDependencies, in an npm workspace laid out as
// `npm install` would link it (no install runs, nothing is fetched): lib, two apps on top of it
// (web, api) and a leaf nothing depends on. Used by tests/integration/turbo-nx*.test.ts.
// web's test asserts on the line that declares it: the reported test and the failing assertion share a file:line.
const WEB_TEST_LINE = (PACKAGES['@acme/web']?.test.split('\n').findIndex((line) => line.startsWith('test(')) ?? -1) + 1;

// The server below answers in this process: a synchronous child would block it.
export const exec = promisify(execFile);
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

/** The node the tasks run with (the first on PATH), as the matrix runs other majors. */
const NODE_PRINTS_TAP = Number(/^v(\d+)/.exec(execFileSync('node', ['--version'], { encoding: 'utf8' }))?.[1] ?? 0) < 23;

export const preset = (id: string) => {
  const found = loadPresets().get(id);
  if (!found) throw new Error(`no preset ${id}`);
  return found;
};

/**
 * The workspace for the calling test file: a git that writes down how it was called in front of the
 * real one (neither tool may ask git what changed), and a remote cache on the loopback interface that
 * answers like Turborepo's and Nx's (a miss for every read, OK for every write) and writes down each
 * request. Registers the file's hooks; `setUp` makes the workspace of one test.
 */
export function useTurboNxWorkspace() {
  const fakes = mkdtempSync(join(tmpdir(), 'gate-turbo-nx-'));
  const gitLog = join(fakes, 'git.log');
  const realGit = (process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'git')).find((path) => existsSync(path)) ?? '/usr/bin/git';
  mkdirSync(join(fakes, 'bin'));
  writeFileSync(join(fakes, 'bin', 'git'), `#!/bin/sh\necho "$*" >> '${gitLog}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(fakes, 'bin', 'git'), 0o755);

  const requests: string[] = [];
  let server: Server;
  const state = { api: '', repo: undefined as TempRepo | undefined };
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
    state.api = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => state.repo?.cleanup());
  afterAll(() => rmSync(fakes, { recursive: true, force: true }));

  const current = (): TempRepo => {
    if (!state.repo) throw new Error('setUp first');
    return state.repo;
  };

  return {
    gitLog,
    requests,
    api: () => state.api,
    repo: current,

    setUp(id: 'turbo-test' | 'nx-test', extraEnv: Record<string, string> = {}) {
      const repo = makeRepo(workspaceFiles(), { commit: false });
      state.repo = repo;
      for (const [name, pkg] of Object.entries(PACKAGES)) link(repo, `node_modules/${name}`, join(repo.dir, pkg.dir));
      link(repo, 'node_modules/turbo', join(PROJECT_ROOT, 'node_modules', 'turbo'));
      link(repo, 'node_modules/nx', join(PROJECT_ROOT, 'node_modules', 'nx'));
      link(repo, 'node_modules/.bin/turbo', join(repo.dir, 'node_modules', 'turbo', 'bin', 'turbo'));
      link(repo, 'node_modules/.bin/nx', join(repo.dir, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'));
      repo.commit('initial');
      // Offline and quiet: no telemetry, no npm update check.
      const env = { PATH: `${join(fakes, 'bin')}${delimiter}${repo.env['PATH'] ?? ''}`, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', npm_config_update_notifier: 'false', ...extraEnv };
      writeFileSync(gitLog, '');
      return { repo, gate: presetGate(repo.dir, id, env, 'test'), env: { ...repo.env, ...env } };
    },

    /**
     * packages/lib's add now rounds a sum up when the second number is above 2; lib's own test still
     * passes, and so does api's, but web (never touched) totals [1, 2, 3] to 7.
     */
    breakLib: () => current().write('packages/lib/index.js', 'exports.add = (a, b) => a + b + (b > 2 ? 1 : 0);\n'),

    gitQueries: () =>
      readFileSync(gitLog, 'utf8')
        .split('\n')
        .filter((line) => /^(?:merge-base|diff|log|status|ls-files)\b/.test(line)),

    /**
     * What the agent reads: the package and task, the test, where it is and why it failed. A bare
     * `node --test` prints TAP when its output is not a terminal, as under turbo and Nx in a gate —
     * up to Node 22; Node 23 and later print the spec reporter's tree there too.
     */
    expectWebBroken(report: Filtered): void {
      const testFile = join(current().dir, 'apps/web/test/index.test.js');
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
    },
  };
}
