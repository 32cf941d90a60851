import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hostBlockCap } from '../config/block-cap.js';
import { ConfigError } from '../config/config-problem.js';
import type { ConfigFiles } from '../config/find-config.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { fastHash } from '../hash/fast-hash.js';
import { packageRoot } from '../package/package-root.js';
import { machineCores } from '../plan/machine-cores.js';
import { readState, writeState } from './state-files.js';

/** A digest of gate's sources, set by scripts/build.mjs; absent when running from the TypeScript sources. */
declare const __GATE_BUILD__: string | undefined;
const BUILD = typeof __GATE_BUILD__ === 'string' ? __GATE_BUILD__ : undefined;

type Entry = { key: string; config: ResolvedConfig };

// One per config of a monorepo whose packages each have their own, and some to spare.
const KEEP = 64;

/**
 * The resolved config of an earlier stop, so that a checked stop need not load zod (the largest
 * module gate has) to validate a config that has not changed since.
 */
export function configCachePath(stateDir: string): string {
  return join(stateDir, 'config-cache.json');
}

/**
 * Everything loadConfig's result depends on: the code that built it, the config files' bytes and
 * folder, the presets shipped with it, the cores gate may use (the default concurrency), the host's block
 * cap (maxBlocks may not pass it). Undefined (no caching) without a build digest.
 */
export function configCacheKey(files: ConfigFiles, build = BUILD, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (build === undefined) return undefined;
  return fastHash(JSON.stringify([build, files.hash, files.dir, presetsStamp(), machineCores(), hostBlockCap(env) ?? null]));
}

/** loadConfig, answered from the cache when nothing it depends on changed. Throws ConfigError as loadConfig does. */
export async function loadConfigCached(stateDir: string, files: ConfigFiles, displayBase: string, build = BUILD): Promise<ResolvedConfig> {
  const path = configCachePath(stateDir);
  const key = configCacheKey(files, build);
  const cached = key === undefined ? undefined : readCachedConfig(path, key);
  if (cached) return cached;
  const { loadConfig } = await import('../config/load-config.js');
  let config: ResolvedConfig;
  try {
    config = loadConfig(files, displayBase);
  } catch (error) {
    // In the CommonJS hook bundle loadConfig comes from the ES module build, whose ConfigError is
    // another class than the one the caller catches: the same problems, as ours.
    if (error instanceof Error && !(error instanceof ConfigError) && 'problems' in error && Array.isArray(error.problems)) throw new ConfigError(error.problems);
    throw error;
  }
  if (key !== undefined) writeCachedConfig(path, key, config);
  return config;
}

export function readCachedConfig(path: string, key: string): ResolvedConfig | undefined {
  return readState(path, isEntries).value?.find((entry) => entry.key === key)?.config;
}

/** Best effort: a cache that can't be written only costs the next stop the validation again. */
export function writeCachedConfig(path: string, key: string, config: ResolvedConfig): void {
  const entries = (readState(path, isEntries).value ?? []).filter((entry) => entry.key !== key);
  try {
    writeState(path, [...entries, { key, config }].slice(-KEEP));
  } catch {
    // The stop goes on; the next state write reports an unwritable state folder if that is what it is.
  }
}

// Looked at on every stop, not at build time: a preset edited in place changes the key too. Size and
// mtime, as make does: hashing their text costs more than the rest of the lookup.
function presetsStamp(): string {
  const dir = join(packageRoot(), 'presets');
  let text = '';
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.json')) continue;
    const stats = statSync(join(dir, name));
    text += `\0${name}\0${stats.size}\0${stats.mtimeMs}`;
  }
  return text;
}

function isEntries(value: unknown): value is Entry[] {
  return Array.isArray(value) && value.every((entry: unknown) => typeof entry === 'object' && entry !== null && 'key' in entry && typeof entry.key === 'string' && 'config' in entry && isResolvedConfig(entry.config));
}

function isResolvedConfig(value: unknown): value is ResolvedConfig {
  if (typeof value !== 'object' || value === null) return false;
  const config = value as Record<string, unknown>;
  return (
    ['dir', 'hash', 'onTimeout', 'outsideGit', 'tamper', 'whenAsking'].every((key) => typeof config[key] === 'string') &&
    ['maxBlocks', 'budget', 'concurrency'].every((key) => typeof config[key] === 'number') &&
    typeof config['subagents'] === 'boolean' &&
    Array.isArray(config['gates']) &&
    config['gates'].every(isResolvedGate)
  );
}

function isResolvedGate(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const gate = value as Record<string, unknown>;
  return (
    ['name', 'filter', 'cwd'].every((key) => typeof gate[key] === 'string') &&
    (typeof gate['run'] === 'string' || isStrings(gate['run'])) &&
    typeof gate['shell'] === 'boolean' &&
    isStrings(gate['on']) &&
    isStrings(gate['ignore']) &&
    typeof gate['timeoutSeconds'] === 'number' &&
    typeof gate['retries'] === 'number' &&
    typeof gate['env'] === 'object' &&
    gate['env'] !== null
  );
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
