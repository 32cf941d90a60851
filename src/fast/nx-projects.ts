import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fullRunFirst, type FastPlan, type Planner } from './planner.js';
import { parseNxGraph, readNxGraph, type NxProject } from './nx-graph.js';
import { listNames, reachDependents } from './reach-dependents.js';
import { findOwners } from './turbo-nx-owners.js';

/**
 * Nx: the projects holding the changed files and every project that depends on them, transitively,
 * from Nx's own project graph, as `nx run-many --projects=A,B`. Not `nx affected --files`: it still
 * runs `git merge-base` against the default branch, and the turn's baseline is not a commit.
 */
export const planNxProjects: Planner = async (input) => {
  const full = fullRunFirst(input, 'project');
  if (full) return full;
  const { gate, files } = input;
  if (!existsSync(join(gate.cwd, 'nx.json'))) return { kind: 'full', why: 'the gate does not run at the Nx workspace root (no nx.json here)' };
  const listed = await readNxGraph(gate);
  if (!listed.ok) return { kind: 'full', why: `${listed.problem}, so the projects the change reaches are unknown` };
  let projects: NxProject[];
  try {
    projects = parseNxGraph(listed.stdout);
  } catch (error) {
    return { kind: 'full', why: `Nx's project graph could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
  return selectNxProjects(files, projects, gate.tier.run);
};

export function selectNxProjects(files: readonly string[], projects: readonly NxProject[], run: string[]): FastPlan {
  const owners = findOwners(files, projects);
  if (owners.kind === 'unowned') return { kind: 'full', why: `${owners.file} is in no project` };
  const byName = new Map(projects.map((project) => [project.name, project]));
  const dependents = new Map<string, NxProject[]>();
  for (const project of projects) {
    for (const dep of project.deps) {
      if (!byName.has(dep)) continue;
      dependents.set(dep, [...(dependents.get(dep) ?? []), project]);
    }
  }
  const changed = projects.filter((project) => owners.units.has(project));
  const reached = reachDependents(changed, (project) => dependents.get(project.name));
  if (reached.size === projects.length) return { kind: 'full', why: `all ${projects.length} projects reach the change` };
  const names = [...reached].map((project) => project.name).sort();
  return {
    kind: 'fast',
    run,
    targets: [`--projects=${names.join(',')}`],
    why: `only ${names.length} of ${projects.length} projects: ${listNames(names)} (the changed ones and those that depend on them)`,
  };
}
