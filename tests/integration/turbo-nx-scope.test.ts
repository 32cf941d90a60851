import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, run } from '../helpers/fast-tier.js';
import { exec, preset, useTurboNxWorkspace } from '../helpers/turbo-nx-workspace.js';

// Which packages turbo and Nx run for a change, and their remote caches, in the workspace of
// tests/helpers/turbo-nx-workspace.ts; the tasks pass. What gate reads from a failing node:test task,
// which changes with Node's major, is turbo-nx.test.ts's.
const workspace = useTurboNxWorkspace();

describe('turbo-test: the packages holding the change and their dependents, through turbo', () => {
  it('runs only the leaf task for a change in the leaf', async () => {
    const { repo, gate, env } = workspace.setUp('turbo-test');
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
    expect(workspace.gitQueries()).toEqual([]);
  });

  it('runs every package for gate check --all and for a root file', async () => {
    const { repo, gate, env } = workspace.setUp('turbo-test');
    expect((await build(repo.dir, gate, ['packages/leaf/index.js'], true)).argv).toEqual(preset('turbo-test').run);
    expect(await build(repo.dir, gate, ['package-lock.json'])).toMatchObject({ argv: preset('turbo-test').run, fast: false, why: 'package-lock.json changed, which affects every package' });
    const result = await run(repo.dir, gate, [], env, true);
    expect(result.status).toBe('passed');
    expect(result.output).toMatch(/Tasks: +4 successful, 4 total/);
  });

  it('reads a remote cache and never writes to it (--cache=local:rw,remote:r)', async () => {
    const { repo, gate, env } = workspace.setUp('turbo-test', { TURBO_API: workspace.api(), TURBO_TOKEN: 'gate-test', TURBO_TEAM: 'acme' });
    repo.write('packages/leaf/index.js', 'exports.shout = (word) => `${word.toUpperCase()}!`; // cached or not\n');
    workspace.requests.length = 0;
    const result = await run(repo.dir, gate, ['packages/leaf/index.js'], env);
    expect(result.status).toBe('passed');
    expect(result.output).toContain('Remote caching enabled (read-only)');
    expect(workspace.requests).toContain('GET /v8/artifacts/status');
    expect(workspace.requests.some((line) => /^GET \/v8\/artifacts\/[0-9a-f]+$/.test(line))).toBe(true);
    expect(workspace.requests.filter((line) => line.startsWith('PUT'))).toEqual([]);
    // The same task without the flag uploads its result: the server is one turbo writes to.
    workspace.requests.length = 0;
    rmSync(join(repo.dir, '.turbo'), { recursive: true, force: true });
    await exec(join(repo.dir, 'node_modules', '.bin', 'turbo'), ['run', 'test', '--filter=@acme/leaf'], { cwd: repo.dir, env });
    expect(workspace.requests.some((line) => line.startsWith('PUT /v8/artifacts/'))).toBe(true);
  });
});

describe("nx-test: the projects holding the change and their dependents, from Nx's project graph", () => {
  it('leaves a self-hosted remote cache alone (Nx has no read-only mode: --skipRemoteCache)', async () => {
    const { repo, gate, env } = workspace.setUp('nx-test', { NX_SELF_HOSTED_REMOTE_CACHE_SERVER: workspace.api(), NX_SELF_HOSTED_REMOTE_CACHE_ACCESS_TOKEN: 'gate-test' });
    workspace.requests.length = 0;
    const result = await run(repo.dir, gate, ['packages/leaf/index.js'], env);
    expect(result.status).toBe('passed');
    expect(workspace.requests).toEqual([]);
    // Without the flag Nx reads and writes it.
    rmSync(join(repo.dir, '.nx'), { recursive: true, force: true });
    await exec(join(repo.dir, 'node_modules', '.bin', 'nx'), ['run-many', '--targets=test', '--projects=@acme/leaf', '--outputStyle=static'], { cwd: repo.dir, env: { ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' } });
    expect(workspace.requests.some((line) => line.startsWith('PUT /v1/cache/'))).toBe(true);
  });

  it('runs only the leaf target for a change in the leaf', async () => {
    const { repo, gate, env } = workspace.setUp('nx-test');
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
    expect(readFileSync(workspace.gitLog, 'utf8')).toBe('');
  });

  it('runs every project for gate check --all', async () => {
    const { repo, gate, env } = workspace.setUp('nx-test');
    expect((await build(repo.dir, gate, ['packages/leaf/index.js'], true)).argv).toEqual(preset('nx-test').run);
    const result = await run(repo.dir, gate, [], env, true);
    expect(result.status).toBe('passed');
    expect(result.output.match(/> nx run \S+/g)).toHaveLength(4);
  });
});
