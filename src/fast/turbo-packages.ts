import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withLocalBins } from '../runner/spawn-group.js';
import { fullRunFirst, type FastPlan, type Planner } from './planner.js';
import { listNames } from './reach-dependents.js';
import { runTool } from './run-tool.js';
import { findOwners, normalizeDir, type WorkspaceUnit } from './turbo-nx-owners.js';

/**
 * Turborepo: the packages holding the changed files, each as `--filter=...NAME` — turbo runs the task
 * in the package and in every package that depends on it (the `...` prefix), transitively. The
 * packages and their folders come from `turbo ls --output json`; nothing asks git what changed.
 */
export const planTurboPackages: Planner = async (input) => {
  const full = fullRunFirst(input, 'package');
  if (full) return full;
  const { gate, files } = input;
  if (!existsSync(join(gate.cwd, 'turbo.json')) && !existsSync(join(gate.cwd, 'turbo.jsonc'))) {
    return { kind: 'full', why: 'the gate does not run at the Turborepo root (no turbo.json here), where turbo picks the package itself' };
  }
  const path = withLocalBins(gate.env['PATH'] ?? process.env['PATH'] ?? '', gate.cwd);
  const listed = await runTool(gate, 'turbo', ['ls', '--output', 'json'], { PATH: path, TURBO_TELEMETRY_DISABLED: '1' });
  if (!listed.ok) return { kind: 'full', why: `${listed.problem}, so the packages holding the change are unknown` };
  let packages: WorkspaceUnit[];
  try {
    packages = parseTurboLs(listed.stdout);
  } catch (error) {
    return { kind: 'full', why: `turbo ls printed what gate could not read (${error instanceof Error ? error.message : String(error)})` };
  }
  return selectTurboPackages(files, packages, gate.tier.run);
};

export function selectTurboPackages(files: readonly string[], packages: readonly WorkspaceUnit[], run: string[]): FastPlan {
  const owners = findOwners(files, packages);
  // The root package's tasks and turbo's global inputs can read any file outside the packages.
  if (owners.kind === 'unowned') return { kind: 'full', why: `${owners.file} is in no package` };
  const names = [...owners.units].map((unit) => unit.name).sort();
  if (names.length === packages.length) return { kind: 'full', why: `every one of the ${packages.length} packages changed` };
  return {
    kind: 'fast',
    run,
    targets: names.map((name) => `--filter=...${name}`),
    why: `only ${listNames(names)} and the packages that depend on them (${names.length} of ${packages.length} packages changed)`,
  };
}

/** `turbo ls --output json` (turbo 2): `{ "packages": { "items": [{ "name", "path" }] } }`. */
export function parseTurboLs(stdout: string): WorkspaceUnit[] {
  const parsed: unknown = JSON.parse(stdout);
  const items = isRecord(parsed) && isRecord(parsed['packages']) ? parsed['packages']['items'] : undefined;
  if (!Array.isArray(items)) throw new Error('no packages.items list');
  return items.map((item: unknown) => {
    if (!isRecord(item) || typeof item['name'] !== 'string' || typeof item['path'] !== 'string') throw new Error('a package without a name and a path');
    return { name: item['name'], dir: normalizeDir(item['path']) };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
