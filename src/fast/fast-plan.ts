import type { FastTier } from '../config/schema.js';
import type { FastInput, FastPlan, Planner } from './planner.js';

export type { FastInput, FastPlan, Planner } from './planner.js';

// Planners that read the repository load only when a gate of theirs runs: the hot path never pays.
const PLANNERS: Record<FastTier['by'], () => Promise<Planner>> = {
  'changed-files': async () => (await import('./changed-files.js')).planChangedFiles,
  incremental: async () => (await import('./incremental.js')).planIncremental,
  typescript: async () => (await import('./typescript.js')).planTypescript,
  'python-imports': async () => (await import('./python-imports.js')).planPythonImports,
  'go-packages': async () => (await import('./go-packages.js')).planGoPackages,
  'cargo-members': async () => (await import('./cargo-members.js')).planCargoMembers,
  'js-imports': async () => (await import('./js-imports.js')).planJsImports,
  'turbo-packages': async () => (await import('./turbo-packages.js')).planTurboPackages,
  'nx-projects': async () => (await import('./nx-projects.js')).planNxProjects,
};

/** The plan for a gate with a preset fast tier. A planner that fails means the full run: never a pass. */
export async function planFastTier(input: FastInput): Promise<FastPlan> {
  try {
    const planner = await PLANNERS[input.gate.tier.by]();
    return await planner(input);
  } catch (error) {
    return { kind: 'full', why: `the fast tier could not be planned (${error instanceof Error ? error.message : String(error)})` };
  }
}
