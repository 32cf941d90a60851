import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ResolvedGate } from '../config/load-config.js';
import { stripJsComments } from '../fast/strip-js-comments.js';

/**
 * The baseline copy's turbo command, reading the work tree's local cache and writing nowhere. Sound:
 * turbo keys an entry by a hash of the task's inputs (file contents, env, its dependencies' hashes)
 * and caches only tasks that passed, so a hit in the copy replays a pass of exactly the copy's inputs.
 * The gate's command as it is when it keeps no local cache to lend: its own command, a cache turned
 * off for reading (`--force`, `--remote-only`, no `local:r`), or no cache folder yet.
 */
export function lendTurboCache(gate: ResolvedGate, run: ResolvedGate['run'], env: NodeJS.ProcessEnv): ResolvedGate['run'] {
  if (gate.tier?.by !== 'turbo-packages' || gate.shell || !Array.isArray(run)) return run;
  const merged = { ...env, ...gate.env };
  if (isOn(merged['TURBO_FORCE']) || isOn(merged['TURBO_REMOTE_ONLY'])) return run;
  const cacheDir = liveTurboCacheDir(gate.cwd, merged);
  if (cacheDir === undefined || !existsSync(cacheDir)) return run;
  return readOnlyCacheArgv(run, cacheDir, merged['TURBO_CACHE'] || undefined) ?? run;
}

/**
 * Where turbo 2 keeps the work tree's local cache: TURBO_CACHE_DIR, else turbo.json's `cacheDir`,
 * else `.turbo/cache`, relative to the Turborepo root. Undefined when the gate does not run at the
 * root (no turbo.json there) or turbo.json cannot be read.
 */
export function liveTurboCacheDir(turboRoot: string, env: NodeJS.ProcessEnv): string | undefined {
  const fromEnv = env['TURBO_CACHE_DIR'];
  const config = ['turbo.json', 'turbo.jsonc'].map((name) => join(turboRoot, name)).find((path) => existsSync(path));
  if (config === undefined) return undefined;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(turboRoot, fromEnv);
  try {
    const parsed: unknown = JSON.parse(stripJsComments(readFileSync(config, 'utf8')));
    const dir = typeof parsed === 'object' && parsed !== null && 'cacheDir' in parsed ? parsed.cacheDir : undefined;
    return resolve(turboRoot, typeof dir === 'string' && dir !== '' ? dir : join('.turbo', 'cache'));
  } catch {
    return undefined;
  }
}

const VALUED = new Set(['--cache', '--cache-dir']);
const OPTIONAL_VALUE = new Set(['--force', '--remote-only', '--remote-cache-read-only']);

/**
 * `run` with its cache flags replaced by `--cache=local:r[,remote:r] --cache-dir=DIR`: the local
 * cache read and never written, the remote one read only if the gate reads it. Undefined when the
 * gate does not read its local cache: lending it would trust what the gate itself does not.
 */
export function readOnlyCacheArgv(run: string[], cacheDir: string, envCache = 'local:rw,remote:rw'): string[] | undefined {
  const end = run.includes('--') ? run.indexOf('--') : run.length;
  const kept: string[] = [];
  // Without a flag: TURBO_CACHE, else turbo's default (both caches read and written).
  let cache = envCache;
  for (let i = 0; i < end; i++) {
    const word = run[i] ?? '';
    const [flag = '', inline] = word.startsWith('--') ? splitOnce(word) : [word, undefined];
    if (VALUED.has(flag)) {
      const value = inline ?? run[++i] ?? '';
      if (flag === '--cache') cache = value;
    } else if (OPTIONAL_VALUE.has(flag)) {
      const next = run[i + 1];
      const value = inline ?? (next === 'true' || next === 'false' ? run[++i] : undefined);
      if (value === 'false') continue;
      if (flag !== '--remote-cache-read-only') return undefined;
      cache = 'local:rw,remote:r';
    } else if (flag === '--no-cache') {
      cache = 'local:r,remote:r';
    } else {
      kept.push(word);
    }
  }
  const reads = readSources(cache);
  if (!reads.has('local')) return undefined;
  const lent = `--cache=local:r${reads.has('remote') ? ',remote:r' : ''}`;
  return [...kept, lent, `--cache-dir=${cacheDir}`, ...run.slice(end)];
}

/** `local:rw,remote:r` → the sources read (turbo also accepts `;` between them). */
function readSources(cache: string): Set<string> {
  const sources = cache.split(/[,;]/).map((part) => part.trim().split(':'));
  return new Set(sources.filter(([, perms]) => perms?.includes('r')).map(([source]) => source ?? ''));
}

function splitOnce(word: string): [string, string | undefined] {
  const at = word.indexOf('=');
  return at === -1 ? [word, undefined] : [word.slice(0, at), word.slice(at + 1)];
}

function isOn(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
