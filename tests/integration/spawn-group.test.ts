import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnGroup, withLocalBins, type SpawnGroupOptions } from '../../src/runner/spawn-group.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-spawn-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(program: string, args: string[], options: Partial<SpawnGroupOptions> = {}) {
  const chunks: Buffer[] = [];
  const { child, exited } = spawnGroup(program, args, { cwd: dir, env: { PATH: process.env['PATH'] ?? '' }, shell: false, onOutput: (chunk) => chunks.push(chunk), ...options });
  const result = await exited;
  return { ...result, pid: child?.pid, output: Buffer.concat(chunks).toString('utf8') };
}

describe('spawnGroup', () => {
  it('starts the command as the leader of a process group of its own, stdin closed', async () => {
    const result = await run('sh', ['-c', 'echo "$$ $(ps -o pgid= -p $$)"; cat']);
    const [pid, group] = result.output.trim().split(/\s+/).map(Number);
    expect(pid).toBe(result.pid);
    expect(group).toBe(result.pid);
    expect(result).toMatchObject({ exitCode: 0, signal: undefined, errorCode: undefined });
  });

  it('merges stdout and stderr in the order they come, and reports exit code and signal', async () => {
    expect(await run('sh', ['-c', 'echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three; exit 3'])).toMatchObject({ output: 'one\ntwo\nthree\n', exitCode: 3 });
    expect(await run('sh', ['-c', 'kill -TERM $$'])).toMatchObject({ exitCode: undefined, signal: 'SIGTERM' });
  });

  it('tells a program that could not start apart, with the reason', async () => {
    expect(await run('definitely-not-a-program-xyz', [])).toMatchObject({ errorCode: 'ENOENT', exitCode: undefined, signal: undefined, pid: undefined });
    writeFileSync(join(dir, 'not-executable'), 'echo hi\n');
    const denied = await run(join(dir, 'not-executable'), []);
    expect(denied).toMatchObject({ errorCode: 'EACCES', exitCode: undefined });
    expect(denied.message).toMatch(/^Command failed with EACCES: .*not-executable\n/);
    writeFileSync(join(dir, 'a-file'), '');
    expect(await run('true', [], { cwd: join(dir, 'a-file') })).toMatchObject({ errorCode: 'ENOTDIR', exitCode: undefined });
  });

  it('runs a command line through /bin/sh only in shell mode', async () => {
    expect((await run('echo $((1 + 2))', [], { shell: true })).output).toBe('3\n');
    expect((await run('echo', ['$((1 + 2))'])).output).toBe('$((1 + 2))\n');
  });

  it('finds programs in node_modules/.bin of the folder and the folders above it', async () => {
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', '.bin', 'local-tool'), '#!/bin/sh\necho "local tool $1"\n');
    chmodSync(join(dir, 'node_modules', '.bin', 'local-tool'), 0o755);
    mkdirSync(join(dir, 'packages', 'app'), { recursive: true });
    expect(await run('local-tool', ['ran'], { cwd: join(dir, 'packages', 'app') })).toMatchObject({ output: 'local tool ran\n', exitCode: 0 });
  });
});

describe('withLocalBins', () => {
  it('puts node_modules/.bin of each folder up to the root in front, nearest first, none twice', () => {
    expect(withLocalBins('/usr/bin:/bin', '/work/app')).toBe('/work/app/node_modules/.bin:/work/node_modules/.bin:/node_modules/.bin:/usr/bin:/bin');
    expect(withLocalBins('/work/node_modules/.bin:/bin', '/work/app')).toBe('/work/app/node_modules/.bin:/node_modules/.bin:/work/node_modules/.bin:/bin');
    expect(withLocalBins('', '/w')).toBe('/w/node_modules/.bin:/node_modules/.bin');
  });
});
