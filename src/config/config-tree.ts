import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pathMatcher } from '../plan/path-matcher.js';
import type { ChangeSet } from '../plan/select-gates.js';
import { LOCAL_FILE, readConfigAt, TEAM_FILE, type ConfigFiles } from './find-config.js';
import type { ResolvedConfig, ResolvedGate } from './load-config.js';

/** What one config's gates look at in a stop. */
export interface Scope {
  /** Changed paths (relative to the repository root) this config owns: it is the nearest config above them. */
  paths: string[];
  /** Set when a package this one depends on changed: its gates run in full. */
  upstream?: { paths: string[]; why: string };
  /** With `upstream`: the package dirs (absolute) its result depends on, and every package's, for a result kept on content (src/state/content-results.ts). */
  content?: { related: string[]; packages: string[] };
}

/** The configs a change involves: the root config's settings, and every involved config's gates. */
export interface ConfigTree {
  /** The root config: the stop-wide settings, and the gates of files no package config claims. */
  root: ResolvedConfig;
  /** The involved configs' gates, root first, names qualified (`packages/lib:test`) outside the root. */
  gates: ResolvedGate[];
  /** Per config directory (absolute), what its gates look at. */
  scopes: Map<string, Scope>;
  /** Per config directory: the config's hash and the root's, which a cached verdict depends on. */
  hashes: Map<string, string>;
  /** Said to the human at the stop: e.g. a workspace graph that could not be read. */
  notices: string[];
  /** Stop-wide keys a package config sets, which only the root config decides (for status and doctor). */
  ignoredKeys: string[];
  /** Changed workspace packages (relative to the repository root) with no config of their own where others have one: see uncoveredPackages. */
  uncovered: string[];
}

export type LoadOne = (files: ConfigFiles) => Promise<ResolvedConfig>;

export interface TreeInput {
  repoRoot: string;
  rootFiles: ConfigFiles;
  change: ChangeSet;
  load: LoadOne;
  /** For `cargo metadata` (a cargo workspace's graph). */
  env?: NodeJS.ProcessEnv;
  /** Every directory holding a config, for a change that could not be narrowed down (all of them run). */
  listConfigDirs?: () => Promise<string[]>;
}

const JS_TEST_RUNNERS: ReadonlySet<string> = new Set(['vitest', 'jest', 'mocha', 'node-test']);

/**
 * Each changed file belongs to the nearest config at or above it (up to the repository root), as
 * lint-staged does; the root config's `workspaces` adds the packages that depend on a changed one.
 */
export async function loadConfigTree(input: TreeInput): Promise<ConfigTree> {
  const { repoRoot, rootFiles, change } = input;
  const root = await input.load(rootFiles);
  const scopes = new Map<string, Scope>([[rootFiles.dir, { paths: [] }]]);
  const nearest = nearestConfigFinder(repoRoot, rootFiles.dir);
  for (const path of change.paths) {
    const owner = nearest(dirname(join(repoRoot, path)));
    if (owner !== undefined) scopeOf(scopes, owner).paths.push(path);
  }
  if (change.all && input.listConfigDirs) for (const dir of await input.listConfigDirs()) scopeOf(scopes, dir);

  const notices: string[] = [];
  const uncovered: string[] = [];
  if (root.workspaces && !change.all) {
    try {
      const { affectedPackages } = await import('../plan/workspace-scope.js');
      const reached = await affectedPackages(root.dir, root.workspaces, repoRoot, change.paths, input.env ?? process.env, (dir) => nearest(dir) === dir);
      // A root test runner over the workspace (init leaves such packages to it: src/init/root-coverage.ts) does test them.
      const rootTests = root.gates.some((gate) => gate.preset !== undefined && JS_TEST_RUNNERS.has(gate.preset));
      if (!rootTests) uncovered.push(...reached.uncovered.map((dir) => relative(repoRoot, dir).split(sep).join('/')));
      for (const affected of reached.affected) {
        // Only a package's own config: a config above it (the root's) has gates for the files it
        // owns, and running them all in full for each dependent would cost what this saves.
        if (nearest(affected.dir) !== affected.dir) continue;
        const scope = scopeOf(scopes, affected.dir);
        scope.upstream ??= { paths: affected.upstream, why: affected.why };
        scope.content ??= affected.content;
      }
    } catch (error) {
      notices.push(`The workspace's dependency graph could not be read, so packages that depend on a changed one were not checked: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const gates: ResolvedGate[] = [...root.gates];
  const hashes = new Map([[rootFiles.dir, rootFiles.hash]]);
  const ignoredKeys: string[] = [];
  for (const dir of [...scopes.keys()].filter((dir) => dir !== rootFiles.dir).sort()) {
    const files = readConfigAt(dir);
    if (!files) continue;
    const config = await input.load(files);
    const label = relative(repoRoot, dir).split(sep).join('/');
    hashes.set(dir, `${rootFiles.hash}\0${files.hash}`);
    for (const key of config.stopWideKeys) ignoredKeys.push(`${label}/${files.team ? TEAM_FILE : LOCAL_FILE} sets "${key}", which only the root config decides: ignored`);
    gates.push(...config.gates.map((gate) => ({ ...gate, name: `${label}:${gate.shortName}` })));
  }
  return { root, gates, scopes, hashes, notices, ignoredKeys, uncovered };
}

function scopeOf(scopes: Map<string, Scope>, dir: string): Scope {
  let scope = scopes.get(dir);
  if (!scope) {
    scope = { paths: [] };
    scopes.set(dir, scope);
  }
  return scope;
}

/**
 * The nearest directory at or above one (up to the repository root) holding a config; remembered per
 * directory. The root config's own folder counts even when its file is gone (the turn deleted it:
 * the stop runs the config the turn started with, src/config/start-config.ts).
 */
function nearestConfigFinder(repoRoot: string, rootDir: string): (dir: string) => string | undefined {
  const known = new Map<string, string | undefined>([[rootDir, rootDir]]);
  const find = (dir: string): string | undefined => {
    if (known.has(dir)) return known.get(dir);
    let found: string | undefined;
    if (existsSync(join(dir, TEAM_FILE)) || existsSync(join(dir, LOCAL_FILE))) found = dir;
    else if (dir !== repoRoot && !relative(repoRoot, dir).startsWith('..') && dirname(dir) !== dir) found = find(dirname(dir));
    known.set(dir, found);
    return found;
  };
  return find;
}

/** Whether a glob list matches a path, for `affectsAll`. */
export function matcher(globs: string[]): (path: string) => boolean {
  return pathMatcher(globs);
}
