import { relative, sep } from 'node:path';
import { LOCAL_FILE, TEAM_FILE } from '../config/find-config.js';
import type { ResolvedGate } from '../config/load-config.js';
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
    const hits = (scope?.paths ?? [])
      .map((path) => ({ path, local: toPosix(relative(gate.configDir, `${repoRoot}/${path}`)) }))
      .filter(({ local }) => local !== '' && !local.startsWith('../') && matches(local) && !ignored(local));
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
    if (hits.length === 0) return { gate, run: false, reason: 'no changed file matches its "on" globs', files, partial: false };
    const first = hits[0]?.local ?? '';
    const more = hits.length > 1 ? ` and ${hits.length - 1} more` : '';
    return { gate, run: true, reason: `${first}${more} changed`, files, partial: false };
  });
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
