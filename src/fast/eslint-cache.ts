import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fastHash } from '../hash/fast-hash.js';
import { pathMatcher } from '../plan/path-matcher.js';
import { listSources, readModuleFiles } from './js-imports.js';
import { parseJsImports } from './parse-js-imports.js';
import type { FastInput, FastPlan } from './planner.js';
import { reachDependents } from './reach-dependents.js';
import { isJsFile, resolveJsImport } from './resolve-js-import.js';
import { stripJsComments } from './strip-js-comments.js';

// eslint whose config turns on rules that read other files (import/*, typed rules: graphql-js) ran
// in full, uncached, at every code stop: 29-115 s where its tests took 12 s. It runs in full still,
// but from eslint's own cache (content strategy: an entry counts only for the same bytes and the same
// config), and gate keeps that cache true for rules that read other files: before each run it drops
// the entries of every file that changed since the last run and of every file that imports one of
// them, directly or not, so eslint lints those again. A change in comments and layout alone drops
// only its own file (a `@deprecated` tag counts as code: import/no-deprecated reads it).

const CACHE_FILE = 'eslintcache';
const STATE_FILE = 'eslint-state.json';
const MAX_FILES = 20_000;

interface State {
  /** The files every entry depends on (lockfiles, manifests, tsconfigs, configs: the tier's `fullRunOn`), hashed together. */
  setup: string;
  /** Each source file (relative) → [its bytes' hash, its code's hash]. */
  files: Record<string, [string, string]>;
}

/**
 * The plan for such an eslint gate: the whole project, from the cache kept true as above; the
 * full run without the cache when gate has no cache folder or more files than it walks.
 */
export function planCachedEslint({ gate, cacheDir }: FastInput, reason: string): FastPlan {
  if (cacheDir === undefined || !Array.isArray(gate.run) || gate.run.length === 0) return { kind: 'full', why: reason };
  const all = listSources(gate.cwd, () => true);
  if (!all || all.length > MAX_FILES) return { kind: 'full', why: `${reason}; more than ${MAX_FILES} files for eslint's cache to follow` };
  mkdirSync(cacheDir, { recursive: true });
  const cache = join(cacheDir, CACHE_FILE);
  const now = currentState(gate.cwd, all, pathMatcher(gate.tier.fullRunOn));
  const before = readState(join(cacheDir, STATE_FILE));
  let relinted: number | 'all';
  if (!before || before.setup !== now.setup) {
    // No record of what the cache saw, or a lockfile, manifest or config changed (a plugin's new
    // version is no change to eslint's config hash): no entry is trusted.
    rmSync(cache, { force: true });
    relinted = 'all';
  } else {
    const changed = Object.keys({ ...before.files, ...now.files }).filter((file) => before.files[file]?.[0] !== now.files[file]?.[0]);
    const codeChanged = changed.filter((file) => before.files[file]?.[1] !== now.files[file]?.[1]);
    const stale = new Set([...changed, ...dependentsOf(gate.cwd, Object.keys(now.files), codeChanged)]);
    // eslint names its entries from its working directory as the system gives it: the real path.
    const real = realpathSync(gate.cwd);
    relinted = dropEntries(cache, [...stale].map((file) => resolve(real, file))) ? stale.size : 'all';
  }
  writeFileSync(join(cacheDir, STATE_FILE), JSON.stringify(now));
  const [program = 'eslint', ...args] = gate.run;
  const run = [program, '--cache', '--cache-strategy', 'content', '--cache-location', `{cache}/${CACHE_FILE}`, ...args];
  const what = relinted === 'all' ? 'every file linted again (no cache gate can trust yet)' : `${relinted} file${relinted === 1 ? '' : 's'} linted again (changed, or importing a changed file), the rest from eslint's cache`;
  return { kind: 'fast', run, targets: [], why: `${reason}: the whole project, ${what}` };
}

function currentState(cwd: string, all: string[], isSetup: (file: string) => boolean): State {
  const files: Record<string, [string, string]> = {};
  const setup: string[] = [];
  for (const file of all) {
    const wanted = isJsFile(file);
    if (!wanted && !isSetup(file)) continue;
    let text: string;
    try {
      text = readFileSync(join(cwd, file), 'utf8');
    } catch {
      continue;
    }
    if (isSetup(file)) setup.push(`${file}\0${fastHash(text)}`);
    if (wanted) files[file] = [fastHash(text), codeHash(text)];
  }
  return { setup: fastHash(setup.sort().join('\n')), files };
}

/** The code of a module, comments and layout left out, with its `@deprecated` tags (which rules of its importers read). */
function codeHash(text: string): string {
  const deprecated = text.match(/@deprecated\b.*/g) ?? [];
  return fastHash(`${stripJsComments(text).replace(/\s+/g, ' ')}\n${deprecated.join('\n')}`);
}

/**
 * The files that import one of `changed`, directly or not. A file with an import gate can't
 * resolve to a file or a package (a computed `require`, an alias) may import anything: it counts
 * whenever something changed.
 */
function dependentsOf(cwd: string, files: string[], changed: string[]): string[] {
  if (changed.length === 0) return [];
  const moduleFiles = readModuleFiles();
  const importers = new Map<string, Set<string>>();
  const unsure: string[] = [];
  for (const file of files) {
    const path = resolve(cwd, file);
    const source = moduleFiles.read(path);
    if (source === undefined) continue;
    const found = parseJsImports(source);
    if (found.computed.length > 0) unsure.push(path);
    for (const specifier of [...found.specifiers, ...found.relativePaths]) {
      const resolution = resolveJsImport(specifier, path, moduleFiles);
      if (resolution.kind === 'local') for (const target of resolution.files) importers.set(target, new Set([...(importers.get(target) ?? []), path]));
      else if (resolution.kind !== 'external') unsure.push(path);
    }
  }
  const reached = reachDependents(changed.map((file) => resolve(cwd, file)), (path) => importers.get(path));
  return [...reached, ...unsure].map((path) => relativeTo(cwd, path));
}

function relativeTo(cwd: string, path: string): string {
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}

/**
 * Drops the entries of `paths` from eslint's cache file, written with flatted (a JSON array whose
 * items refer to each other by index): file-entry-cache 6 (eslint 8) has an object first that maps
 * each absolute path to its entry; flat-cache 6 (eslint 9.30 and later) a list of `{ key, value }`
 * pairs first. False when the file is in another form: then it is deleted, and eslint lints
 * everything again.
 */
function dropEntries(cache: string, paths: string[]): boolean {
  let text: string;
  try {
    text = readFileSync(cache, 'utf8');
  } catch {
    return true;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) throw new Error('not a flatted cache');
    const items: unknown[] = parsed;
    const root = items[0];
    const drop = new Set(paths);
    if (Array.isArray(root)) {
      const keyOf = (ref: unknown) => {
        const pair = typeof ref === 'string' ? items[Number(ref)] : undefined;
        const key = typeof pair === 'object' && pair !== null && 'key' in pair ? pair.key : undefined;
        const path = typeof key === 'string' ? items[Number(key)] : undefined;
        if (typeof path !== 'string') throw new Error('not a flat-cache 6 entry');
        return path;
      };
      items[0] = root.filter((ref) => !drop.has(keyOf(ref)));
    } else if (typeof root === 'object' && root !== null) {
      const entries: Record<string, unknown> = Object.fromEntries(Object.entries(root).filter(([path]) => !drop.has(path)));
      items[0] = entries;
    } else throw new Error('not a flatted cache');
    writeFileSync(cache, JSON.stringify(items));
    return true;
  } catch {
    rmSync(cache, { force: true });
    return false;
  }
}

function readState(path: string): State | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof value !== 'object' || value === null || !('setup' in value) || !('files' in value)) return undefined;
    const { setup, files } = value;
    if (typeof setup !== 'string' || typeof files !== 'object' || files === null) return undefined;
    return { setup, files: Object.fromEntries(Object.entries(files).filter((entry): entry is [string, [string, string]] => Array.isArray(entry[1]) && entry[1].length === 2)) };
  } catch {
    return undefined;
  }
}
