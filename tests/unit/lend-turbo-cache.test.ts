import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveTurboCacheDir, readOnlyCacheArgv } from '../../src/verdict/lend-turbo-cache.js';

// Issue 31 point 3: the baseline copy reads the work tree's turbo cache and never writes to it.
describe('readOnlyCacheArgv', () => {
  const PRESET = ['turbo', 'run', 'test', '--cache=local:rw,remote:r', '--continue=dependencies-successful', '--filter=@acme/web'];

  it("replaces the preset's --cache=local:rw,remote:r with a read-only one on the live cache folder", () => {
    expect(readOnlyCacheArgv(PRESET, '/repo/.turbo/cache')).toEqual([
      'turbo',
      'run',
      'test',
      '--continue=dependencies-successful',
      '--filter=@acme/web',
      '--cache=local:r,remote:r',
      '--cache-dir=/repo/.turbo/cache',
    ]);
  });

  it('reads the remote cache only where the gate does; its own --cache-dir is replaced; words after "--" stay the tasks\'', () => {
    expect(readOnlyCacheArgv(['turbo', 'run', 'lint', '--cache', 'local:rw', '--cache-dir', 'x', '--', '--cache=y'], '/c')).toEqual(['turbo', 'run', 'lint', '--cache=local:r', '--cache-dir=/c', '--', '--cache=y']);
    // turbo's default without a flag, or TURBO_CACHE's.
    expect(readOnlyCacheArgv(['turbo', 'run', 'test'], '/c')).toEqual(['turbo', 'run', 'test', '--cache=local:r,remote:r', '--cache-dir=/c']);
    expect(readOnlyCacheArgv(['turbo', 'run', 'test'], '/c', 'local:rw')).toEqual(['turbo', 'run', 'test', '--cache=local:r', '--cache-dir=/c']);
    expect(readOnlyCacheArgv(['turbo', 'run', 'test', '--no-cache'], '/c')).toEqual(['turbo', 'run', 'test', '--cache=local:r,remote:r', '--cache-dir=/c']);
    expect(readOnlyCacheArgv(['turbo', 'run', 'test', '--remote-cache-read-only'], '/c')).toEqual(['turbo', 'run', 'test', '--cache=local:r,remote:r', '--cache-dir=/c']);
  });

  it('lends nothing to a gate that does not read its local cache', () => {
    expect(readOnlyCacheArgv(['turbo', 'run', 'test', '--force'], '/c')).toBeUndefined();
    expect(readOnlyCacheArgv(['turbo', 'run', 'test', '--remote-only'], '/c')).toBeUndefined();
    expect(readOnlyCacheArgv(['turbo', 'run', 'test', '--cache=local:w,remote:rw'], '/c')).toBeUndefined();
    expect(readOnlyCacheArgv(['turbo', 'run', 'test'], '/c', 'remote:r')).toBeUndefined();
    expect(readOnlyCacheArgv(['turbo', 'run', 'test', '--force=false'], '/c')).toEqual(['turbo', 'run', 'test', '--cache=local:r,remote:r', '--cache-dir=/c']);
  });
});

describe('liveTurboCacheDir', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const root = (turboJson: string, name = 'turbo.json') => {
    dir = mkdtempSync(join(tmpdir(), 'gate-turbo-cache-'));
    mkdirSync(join(dir, 'repo'));
    writeFileSync(join(dir, 'repo', name), turboJson);
    return join(dir, 'repo');
  };

  it('TURBO_CACHE_DIR, else turbo.json cacheDir, else .turbo/cache, from the Turborepo root', () => {
    const at = root('{ "cacheDir": "build/turbo-cache", "tasks": {} }');
    expect(liveTurboCacheDir(at, {})).toBe(join(at, 'build', 'turbo-cache'));
    expect(liveTurboCacheDir(at, { TURBO_CACHE_DIR: 'elsewhere' })).toBe(join(at, 'elsewhere'));
    expect(liveTurboCacheDir(at, { TURBO_CACHE_DIR: '/abs/cache' })).toBe('/abs/cache');
    rmSync(dir, { recursive: true });
    const plain = root('// comments are fine\n{ "tasks": {} }\n', 'turbo.jsonc');
    expect(liveTurboCacheDir(plain, {})).toBe(join(plain, '.turbo', 'cache'));
  });

  it('none where the gate does not run at the root, or turbo.json cannot be read', () => {
    const at = root('{ "tasks": ');
    expect(liveTurboCacheDir(at, {})).toBeUndefined();
    expect(liveTurboCacheDir(join(at, 'nowhere'), {})).toBeUndefined();
  });
});
