import { relative, sep } from 'node:path';
import { LOCAL_FILE, TEAM_FILE } from '../config/find-config.js';
import type { ResolvedGate } from '../config/load-config.js';
import { manifestChangeLeaves } from './manifest-change.js';
import { pathMatcher } from './path-matcher.js';

export interface GateSelection {
  gate: ResolvedGate;
  run: boolean;
  /** Why the gate runs or not, in words for `gate status`. */
  reason: string;
  /** The changed files (relative to the gate's cwd) that triggered it; what `{files}` expands to. */
  files: string[];
  /** The full command: the change could not be narrowed down, or a package this one depends on changed. */
  partial: boolean;
  /** The changed paths (relative to the repository root) of the packages this one depends on. */
  upstream?: string[];
  /**
   * Those paths relative to the gate's cwd, for a gate whose fast tier follows imports into other
   * packages (vitest, tsc): it runs on them (the tests and files that reach them), not in full.
   */
  upstreamFiles?: string[];
  /** Folders under its cwd that another gate of its preset in this stop owns: its full run leaves them out (src/plan/leave-to-packages.ts). */
  leaveOut?: string[];
  /** Not run because its changed files are the same code as at the change's base: its verdict there is not known here. */
  sameCode?: true;
}

/** The gates whose fast tier reads the import graph, which leads into the packages this one depends on. */
export function narrowsUpstream(gate: ResolvedGate): boolean {
  return gate.tier !== undefined && !gate.fastOff && (gate.preset === 'vitest' || gate.tier.by === 'typescript');
}

/** The files a selected gate runs on, and whether in full: its own changed files, or a dependency's through its imports. */
export function filesToRun(selection: GateSelection): { files: string[]; full: boolean } {
  if (selection.upstreamFiles && selection.files.length === 0) return { files: selection.upstreamFiles, full: false };
  return { files: selection.files, full: selection.partial };
}

export interface ChangeSet {
  /** Changed paths relative to the repository root, with `/` separators. */
  paths: string[];
  /** The change could not be narrowed down: every gate runs. */
  all: boolean;
  /** Each changed package.json (path as in `paths`) whose start and current text parse: the keys that differ (src/plan/manifest-change.ts). */
  manifestKeys?: Record<string, string[]>;
}

/** What one config's gates look at: see ConfigTree. */
export interface GateScope {
  paths: string[];
  upstream?: { paths: string[]; why: string };
}

/**
 * Which gates a change triggers: a changed path its config owns (see loadConfigTree) matching `on`
 * and not `ignore`, or a changed package its config's package depends on. `skip` and `only` name
 * a gate by its full name (`packages/lib:test`) or its own (`test`: in every config).
 */
export function selectGates(
  gates: ResolvedGate[],
  change: ChangeSet,
  repoRoot: string,
  scopes: ReadonlyMap<string, GateScope>,
  skip: ReadonlySet<string>,
  only: ReadonlySet<string> | undefined,
): GateSelection[] {
  const named = (set: ReadonlySet<string>, gate: ResolvedGate) => set.has(gate.name) || set.has(gate.shortName);
  return gates.map((gate) => {
    if (only && !named(only, gate)) return { gate, run: false, reason: 'not asked for', files: [], partial: change.all };
    if (skip.has(gate.name) || skip.has(gate.shortName)) return { gate, run: false, reason: 'skipped by GATE_SKIP', files: [], partial: change.all };
    const scope = scopes.get(gate.configDir);
    const matches = pathMatcher(gate.on);
    const ignored = pathMatcher(gate.ignore);
    const matched = (scope?.paths ?? [])
      .map((path) => ({ path, local: toPosix(relative(gate.configDir, `${repoRoot}/${path}`)) }))
      .filter(({ local }) => local !== '' && !local.startsWith('../') && matches(local) && !ignored(local));
    // A package.json edited only where no test or type check reads it (a script it doesn't run, the description) is no change for it.
    const unread = matched.filter(({ path }) => manifestUnread(gate, change.manifestKeys?.[path]));
    const hits = matched.filter((hit) => !unread.includes(hit));
    const files = hits.map(({ path }) => toPosix(relative(gate.cwd, `${repoRoot}/${path}`)));
    if (change.all) return { gate, run: true, reason: 'the change could not be narrowed down', files, partial: true };
    // A gate's own config changed (a package's new config, a command edited): its result may have too.
    const configFile = (scope?.paths ?? []).map((path) => toPosix(relative(gate.configDir, `${repoRoot}/${path}`))).find((local) => local === TEAM_FILE || local === LOCAL_FILE);
    if (configFile !== undefined) return { gate, run: true, reason: `its ${configFile} changed (the full run)`, files, partial: true };
    // A lockfile or manifest changes what every test and check runs on: no fast tier can narrow it.
    const isDependency = gate.fullRunOn?.length && hits.length > 0 ? pathMatcher(gate.fullRunOn) : undefined;
    const dependency = isDependency ? hits.find(({ local }) => isDependency(local)) : undefined;
    if (dependency && isDependency) {
      // The lockfile is a reason to run, not a file to check: a user's `ruff check {files}` would read uv.lock as Python.
      const sources = files.filter((_, index) => !isDependency(hits[index]?.local ?? ''));
      return { gate, run: true, reason: `${dependency.local} changed, a lockfile or manifest (the full run)`, files: sources, partial: true };
    }
    if (scope?.upstream && narrowsUpstream(gate) && hits.length === 0) {
      const upstreamFiles = scope.upstream.paths.map((path) => toPosix(relative(gate.cwd, `${repoRoot}/${path}`)));
      return { gate, run: true, reason: scope.upstream.why, files, partial: true, upstream: scope.upstream.paths, upstreamFiles };
    }
    if (scope?.upstream) return { gate, run: true, reason: `${scope.upstream.why} (the full run)`, files, partial: true, upstream: scope.upstream.paths };
    if (hits.length === 0 && unread[0]) return { gate, run: false, reason: describeUnread(unread[0].local, change.manifestKeys?.[unread[0].path] ?? []), files, partial: false };
    if (hits.length === 0) return { gate, run: false, reason: 'no changed file matches its "on" globs', files, partial: false };
    const first = hits[0]?.local ?? '';
    const more = hits.length > 1 ? ` and ${hits.length - 1} more` : '';
    return { gate, run: true, reason: `${first}${more} changed`, files, partial: false };
  });
}

/** Whether a gate that runs its preset's tests or type check leaves a package.json change of these keys unread. */
function manifestUnread(gate: ResolvedGate, keys: string[] | undefined): boolean {
  return keys !== undefined && gate.tier !== undefined && (gate.kind === 'test' || gate.kind === 'typecheck') && manifestChangeLeaves(gate, keys);
}

function describeUnread(path: string, keys: string[]): string {
  const what = keys.length === 0 ? 'in its formatting' : `in ${keys.length > 4 ? `${keys.slice(0, 3).join(', ')} and ${keys.length - 3} more` : keys.join(', ')}`;
  return `${path} changed only ${what}: no dependency, entry point, runner config or test script, nothing this gate reads`;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
