import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/config/config-problem.js';
import type { ConfigFiles } from '../../src/config/find-config.js';
import { loadConfig } from '../../src/config/load-config.js';
import { configCacheKey, configCachePath, loadConfigCached, readCachedConfig, writeCachedConfig } from '../../src/state/config-cache.js';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

let base: string;
let count = 0;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'gate-config-cache-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const freshStateDir = () => join(base, `state-${++count}`, 'gate');

function files(config: unknown, dir = '/repo'): ConfigFiles {
  const text = JSON.stringify(config);
  return { dir, hash: `hash of ${text}`, team: { path: `${dir}/gate.config.json`, text } };
}

const TEST_GATE = { gates: [{ name: 'test', run: ['npm', 'test'] }] };

describe('configCacheKey', () => {
  it('is undefined without a build digest: running from the sources never caches', () => {
    expect(configCacheKey(files(TEST_GATE), undefined)).toBeUndefined();
  });

  it('changes with the build, the config bytes and the config folder', () => {
    const key = configCacheKey(files(TEST_GATE), 'build-1');
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(configCacheKey(files(TEST_GATE), 'build-1')).toBe(key);
    expect(configCacheKey(files(TEST_GATE), 'build-2')).not.toBe(key);
    expect(configCacheKey(files({ gates: [{ name: 'test', run: ['npm', 't'] }] }), 'build-1')).not.toBe(key);
    expect(configCacheKey(files(TEST_GATE, '/elsewhere'), 'build-1')).not.toBe(key);
  });
});

describe('the cached resolved config', () => {
  it('is found by its key only, and keeps the newest few', () => {
    const path = configCachePath(freshStateDir());
    const config = loadConfig(files(TEST_GATE), '/repo');
    expect(readCachedConfig(path, 'k0')).toBeUndefined();
    // 64 kept: one per package config of a monorepo.
    for (let i = 0; i < 66; i++) writeCachedConfig(path, `k${i}`, { ...config, maxBlocks: i });
    expect(readCachedConfig(path, 'k65')?.maxBlocks).toBe(65);
    expect(readCachedConfig(path, 'k2')?.maxBlocks).toBe(2);
    expect(readCachedConfig(path, 'k1')).toBeUndefined();
    expect(readCachedConfig(path, 'other')).toBeUndefined();
  });

  it('treats a corrupt or foreign file as empty and replaces it', () => {
    for (const text of ['{not json', '[{"key":"k","config":{"gates":"none"}}]', '{"key":"k"}']) {
      const stateDir = freshStateDir();
      mkdirSync(stateDir, { recursive: true });
      writeFileSync(configCachePath(stateDir), text);
      expect(readCachedConfig(configCachePath(stateDir), 'k')).toBeUndefined();
      writeCachedConfig(configCachePath(stateDir), 'k', loadConfig(files(TEST_GATE), '/repo'));
      expect(readCachedConfig(configCachePath(stateDir), 'k')?.gates[0]?.name).toBe('test');
    }
  });

  it('does not throw when the state folder cannot be written', () => {
    const blocked = join(base, 'a-file');
    writeFileSync(blocked, '');
    expect(() => writeCachedConfig(join(blocked, 'gate', 'config-cache.json'), 'k', loadConfig(files(TEST_GATE), '/repo'))).not.toThrow();
  });

  it('holds what loadConfig returns for every preset, unchanged by the trip through JSON', () => {
    const presets = readdirSync(join(PROJECT_ROOT, 'presets')).map((name) => name.replace(/\.json$/, ''));
    const config = loadConfig(files({ gates: presets.map((preset) => ({ name: preset, preset })) }), '/repo');
    const path = configCachePath(freshStateDir());
    writeCachedConfig(path, 'k', config);
    expect(readCachedConfig(path, 'k')).toEqual(config);
  });
});

describe('loadConfigCached', () => {
  it('validates once, then answers from the cache until the config changes', async () => {
    const stateDir = freshStateDir();
    const first = await loadConfigCached(stateDir, files(TEST_GATE), '/repo', 'build-1');
    expect(first.gates.map((gate) => gate.name)).toEqual(['test']);
    const key = configCacheKey(files(TEST_GATE), 'build-1') ?? '';
    expect(readCachedConfig(configCachePath(stateDir), key)).toEqual(first);
    // A cached entry is what a stop gets while the key matches, whatever loadConfig would say now.
    writeCachedConfig(configCachePath(stateDir), key, { ...first, maxBlocks: 7 });
    expect((await loadConfigCached(stateDir, files(TEST_GATE), '/repo', 'build-1')).maxBlocks).toBe(7);
    expect((await loadConfigCached(stateDir, files(TEST_GATE), '/repo', 'build-2')).maxBlocks).toBe(3);
  });

  it('throws ConfigError for an invalid config, and caches nothing', async () => {
    const stateDir = freshStateDir();
    const invalid = files({ gates: [{ name: 'test', run: ['npm', 'test'], timeout: '60s' }] });
    await expect(loadConfigCached(stateDir, invalid, '/repo', 'build-1')).rejects.toBeInstanceOf(ConfigError);
    expect(readCachedConfig(configCachePath(stateDir), configCacheKey(invalid, 'build-1') ?? '')).toBeUndefined();
  });

  it("turns another copy's ConfigError (the ESM build's, seen from the CommonJS hook) into this one's", async () => {
    vi.resetModules();
    const problem = { file: 'gate.config.json', path: 'gates[0].timeout', message: 'expected a number, got "60s"' };
    vi.doMock('../../src/config/load-config.js', () => ({
      loadConfig: () => {
        throw Object.assign(new Error('from the other copy'), { problems: [problem] });
      },
    }));
    try {
      const { loadConfigCached: load } = await import('../../src/state/config-cache.js');
      const { ConfigError: Ours } = await import('../../src/config/config-problem.js');
      const error = await load(freshStateDir(), files(TEST_GATE), '/repo', 'build-1').catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(Ours);
      expect(error).toMatchObject({ problems: [problem], message: 'gate.config.json: gates[0].timeout: expected a number, got "60s"' });
    } finally {
      vi.doUnmock('../../src/config/load-config.js');
      vi.resetModules();
    }
  });

  it('without a build digest, validates every time and writes no cache', async () => {
    const stateDir = freshStateDir();
    expect((await loadConfigCached(stateDir, files(TEST_GATE), '/repo', undefined)).gates).toHaveLength(1);
    expect(() => readdirSync(stateDir)).toThrow();
  });
});
