import type { Preset } from '../config/schema.js';
import { managerCommands } from '../package/package-manager.js';
import { locateProgram } from '../runner/locate-program.js';
import type { ProjectEnv } from '../runner/project-env.js';
import type { ChosenPreset, Detection } from './detect-presets.js';
import { installHint, NODE_PACKAGES } from './install-hint.js';
import { DEPENDENCY_FIELDS, type RepoFacts } from './repo-facts.js';

export interface ProgramFound {
  /** The program the preset's command starts. */
  name: string;
  found: boolean;
  projectEnv: ProjectEnv | undefined;
}

export type FindProgram = (preset: Preset, dir: string) => Promise<ProgramFound | undefined>;

/**
 * A gate whose program is not there gives no verdict at any stop ("could not start"), and `gate
 * verdict` fails every session: init proposes a preset only where its program is found, as a run
 * looks it up (the project's Python environment, node_modules/.bin, PATH), and says exactly what to
 * install for each one it leaves out. A Node tool that package.json lists is the project's own: it is
 * kept, with the install command, since the team's config is for every clone that installs.
 */
export async function dropMissingTools(detection: Detection, dir: string, facts: RepoFacts, presets: Map<string, Preset>, env: NodeJS.ProcessEnv, find: FindProgram = locatePreset(env)): Promise<Detection> {
  const kept: ChosenPreset[] = [];
  const notes: string[] = [];
  for (const chosen of detection.presets) {
    const preset = presets.get(chosen.preset);
    const program = preset === undefined ? undefined : await find(preset, dir);
    if (preset === undefined || program === undefined || program.found) {
      kept.push(chosen);
      continue;
    }
    const hint = installHint(preset, program.name, { facts, dir, manager: detection.packageManager?.name, projectEnv: program.projectEnv });
    const listed = preset.ecosystem === 'node' ? listedIn(facts, NODE_PACKAGES[program.name] ?? program.name) : undefined;
    if (listed !== undefined) {
      kept.push(chosen);
      notes.push(`package.json ${listed} has ${NODE_PACKAGES[program.name] ?? program.name}, but ${program.name} is not installed here: run \`${managerCommands(detection.packageManager?.name ?? 'npm').install}\` before an agent's first stop, or the ${chosen.gateName} gate cannot start.`);
      continue;
    }
    const where = program.projectEnv ? `${program.projectEnv.dir}, node_modules/.bin or PATH` : 'node_modules/.bin or PATH';
    notes.push(
      `no ${chosen.gateName} gate: preset ${chosen.preset} fits (${chosen.reasons.join('; ')}), but ${program.name} is not installed (not in ${where}), and a gate that cannot start gives no verdict at any stop. Install it: ${hint}; then add { "name": "${chosen.gateName}", "preset": "${chosen.preset}" } to the config.`,
    );
  }
  if (notes.length === 0) return detection;
  const missing = detection.presets.filter((chosen) => !kept.includes(chosen)).map((chosen) => chosen.preset);
  return { ...detection, presets: kept, notes: [...detection.notes.filter((note) => !choseAmong(note, missing)), ...notes], missingTools: missing };
}

/** A note of how one of several presets was chosen ("mypy and pyright both present …") about a preset now left out. */
function choseAmong(note: string, missing: string[]): boolean {
  const [group = '', rest = ''] = note.split(/ (?:both|all) present/, 2);
  return rest !== '' && missing.some((id) => group.split(/, | and /).includes(id));
}

/** Where a run would find the preset's program, from `dir` with the hook's environment. */
export function locatePreset(env: NodeJS.ProcessEnv): FindProgram {
  return async (preset, dir) => {
    const used = await locateProgram({ cwd: dir, env: {}, preset: preset.id }, { argv: preset.run, shell: false }, env, dir, undefined);
    return used === undefined ? undefined : { name: used.name, found: used.path !== undefined, projectEnv: used.projectEnv };
  };
}

function listedIn(facts: RepoFacts, name: string): string | undefined {
  return DEPENDENCY_FIELDS.find((field) => facts.packageJson?.dependencies[field]?.includes(name));
}
