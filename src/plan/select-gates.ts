import picomatch from 'picomatch';
import { relative, sep } from 'node:path';
import type { ResolvedGate } from '../config/load-config.js';

export interface GateSelection {
  gate: ResolvedGate;
  run: boolean;
  /** Why the gate runs or not, in words for `gate status`. */
  reason: string;
  /** The changed files (relative to the gate's cwd) that triggered it; what `{files}` expands to. */
  files: string[];
  /** The files are not the whole change (it could not be narrowed down): no related-tests shortcut. */
  partial: boolean;
}

export interface ChangeSet {
  /** Changed paths relative to the repository root, with `/` separators. */
  paths: string[];
  /** The change could not be narrowed down: every gate runs. */
  all: boolean;
}

/** Which gates a change triggers: a changed path under the config's directory matching `on` and not `ignore`. */
export function selectGates(
  gates: ResolvedGate[],
  change: ChangeSet,
  repoRoot: string,
  configDir: string,
  skip: ReadonlySet<string>,
  only: ReadonlySet<string> | undefined,
): GateSelection[] {
  const underConfig = change.paths
    .map((path) => ({ path, local: toPosix(relative(configDir, `${repoRoot}/${path}`)) }))
    .filter(({ local }) => local !== '' && !local.startsWith('../'));
  return gates.map((gate) => {
    if (only && !only.has(gate.name)) return { gate, run: false, reason: 'not asked for', files: [], partial: change.all };
    if (skip.has(gate.name)) return { gate, run: false, reason: 'skipped by GATE_SKIP', files: [], partial: change.all };
    const matches = picomatch(gate.on, { dot: true });
    const ignored = gate.ignore.length > 0 ? picomatch(gate.ignore, { dot: true }) : () => false;
    const hits = underConfig.filter(({ local }) => matches(local) && !ignored(local));
    const files = hits.map(({ path }) => toPosix(relative(gate.cwd, `${repoRoot}/${path}`)));
    if (change.all) return { gate, run: true, reason: 'the change could not be narrowed down', files, partial: true };
    if (hits.length === 0) return { gate, run: false, reason: 'no changed file matches its "on" globs', files, partial: false };
    const first = hits[0]?.local ?? '';
    const more = hits.length > 1 ? ` and ${hits.length - 1} more` : '';
    return { gate, run: true, reason: `${first}${more} changed`, files, partial: false };
  });
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
