import type { Preset } from '../config/schema.js';
import type { WorkspaceKind } from '../workspace/workspace-graph.js';
import { isDelegate, type Detection, type PackageManager } from './detect-presets.js';
import type { RepoFacts } from './repo-facts.js';
import type { StarterGate } from './starter-config.js';

/** A gate init proposes, with why, for the plan. */
export interface PlannedGate {
  gate: StarterGate;
  why: string;
}

/** For each package dir: the presets of its own detection that the root's gate of the same preset checks (src/init/root-coverage.ts). */
export type RootCoverage = Map<string, Set<string>>;

export interface MemberFacts {
  /** Relative to the workspace root, posix. */
  dir: string;
  facts: RepoFacts;
  detection: Detection;
}

export interface MemberPlan {
  dir: string;
  /** Empty: nothing detected, so no config of its own (the root config gates its files). */
  gates: PlannedGate[];
  notes: string[];
}

/**
 * How init lays out a workspace's configs. `packages`: one config per package with something to
 * gate, and a root config that names the workspace. `delegate`: Turborepo or Nx run the affected
 * packages' own tasks, so one root config. `root`: cargo's presets already narrow to the affected crates.
 */
export interface WorkspaceLayout {
  kind: WorkspaceKind;
  mode: 'packages' | 'delegate' | 'root';
  /** The root config's `"workspaces"`; none where a root preset follows the graph itself. */
  workspacesKey: WorkspaceKind | undefined;
  rootGates: PlannedGate[];
  members: MemberPlan[];
  notes: string[];
}

export interface LayoutInputs {
  kind: WorkspaceKind;
  root: Detection;
  members: MemberFacts[];
  packageManager: PackageManager;
  presets: Map<string, Preset>;
  /** The packages' presets that the root's own run of the same tool checks (src/init/root-coverage.ts). */
  coverage?: RootCoverage;
}

const NODE_KINDS: ReadonlySet<WorkspaceKind> = new Set(['npm', 'pnpm', 'yarn']);

/** Which config goes where in a workspace, computed from each directory's detection. */
export function planWorkspaceLayout(inputs: LayoutInputs): WorkspaceLayout {
  const { kind, root, presets } = inputs;
  const rootAll = root.presets.map((chosen) => ({ gate: { name: chosen.gateName, preset: chosen.preset, ...(chosen.run ? { run: chosen.run } : {}) }, why: `preset ${chosen.preset}: ${chosen.reasons.join('; ')}` }));
  if (root.presets.some((chosen) => isDelegate(chosen.preset))) {
    const runner = root.presets.find((chosen) => isDelegate(chosen.preset))?.preset.split('-')[0] === 'nx' ? 'Nx' : 'Turborepo';
    return { kind, mode: 'delegate', workspacesKey: undefined, rootGates: rootAll, members: [], notes: [`${runner} runs each affected package's own tasks, so there is one config, at the root, and none per package.`] };
  }
  if (kind === 'cargo') {
    const notes = ['cargo workspace: cargo-test and cargo-clippy at the root already run only the crates a change reaches (-p per changed crate and each crate that depends on it), so there is one config, at the root.'];
    return { kind, mode: 'root', workspacesKey: undefined, rootGates: rootAll, members: [], notes };
  }

  const inherited = NODE_KINDS.has(kind) ? root.presets.filter((chosen) => kindOf(presets, chosen.preset) === 'lint' && ecosystemOf(presets, chosen.preset) === 'node') : [];
  // A package the root's runs check whole needs no config: one that kept a gate of its own would
  // own its files (the nearest config does), and the root's gates would no longer see them.
  const rootChecked = inputs.members.filter((member) => member.detection.presets.length > 0 && member.detection.presets.every((chosen) => inputs.coverage?.get(member.dir)?.has(chosen.preset)));
  const members = inputs.members.map((member) => (rootChecked.includes(member) ? { dir: member.dir, gates: [], notes: [] } : planMember(member, inherited, inputs)));
  const relied = new Set(rootChecked.flatMap((member) => member.detection.presets.map((chosen) => chosen.preset)));
  // A test runner or type checker run in full at the root of a node workspace checks every package again.
  const coveredKinds = new Set(members.flatMap((member) => member.gates.flatMap((planned) => ('preset' in planned.gate ? [kindOf(presets, planned.gate.preset)] : ['test']))));
  const left = rootAll.filter(({ gate }) => ecosystemOf(presets, gate.preset) === 'node' && coveredKinds.has(kindOf(presets, gate.preset)) && kindOf(presets, gate.preset) !== 'lint' && !relied.has(gate.preset));
  const rootGates = rootAll.filter((planned) => !left.includes(planned));
  const notes: string[] = [];
  if (left.length > 0) {
    const names = left.map(({ gate }) => gate.preset).join(' and ');
    notes.push(`the root's ${names} ${left.length > 1 ? 'are' : 'is'} left out of the root config: the packages run their own, and a full run at the root would check every package again. Add ${left.length > 1 ? 'them' : 'it'} by hand if the root holds sources of its own.`);
  }
  if (rootChecked.length > 0) {
    const tools = listDirs([...relied].sort());
    notes.push(`no config in ${listDirs(rootChecked.map((member) => member.dir))}: the root's scripts run ${tools} once over the workspace, and those runs check ${rootChecked.length > 1 ? 'these packages' : 'this package'} as ${rootChecked.length > 1 ? 'their' : 'its'} own would, so the root config's gates cover ${rootChecked.length > 1 ? 'them' : 'it'} (one process per tool instead of one per package).`);
  }
  const empty = members.filter((member) => member.gates.length === 0 && !rootChecked.some((checked) => checked.dir === member.dir)).map((member) => member.dir);
  if (empty.length > 0) notes.push(`nothing detected in ${listDirs(empty)}: no config there; the root config's gates cover ${empty.length > 1 ? 'their' : 'its'} files.`);
  return { kind, mode: 'packages', workspacesKey: kind, rootGates, members, notes };
}

function planMember(member: MemberFacts, inherited: Detection['presets'], inputs: LayoutInputs): MemberPlan {
  const { presets } = inputs;
  const gates: PlannedGate[] = member.detection.presets.map((chosen) => ({ gate: { name: chosen.gateName, preset: chosen.preset, ...(chosen.run ? { run: chosen.run } : {}) }, why: `preset ${chosen.preset}: ${chosen.reasons.join('; ')}` }));
  const script = member.facts.packageJson?.scripts['test'];
  const hasTests = member.detection.presets.some((chosen) => kindOf(presets, chosen.preset) === 'test');
  // A runner left out for having no test would fail the same way run through the script.
  const emptySuite = (member.detection.emptySuites ?? []).length > 0;
  if (!hasTests && !emptySuite && script !== undefined && !script.includes('no test specified')) {
    const run = [inputs.packageManager, 'run', 'test'];
    gates.unshift({ gate: { name: 'test', run }, why: `${run.join(' ')}: the package.json test script ("${script}") runs no test runner gate has a preset for` });
  }
  if (gates.length > 0) {
    const linted = new Set(member.detection.presets.filter((chosen) => kindOf(presets, chosen.preset) === 'lint').map((chosen) => ecosystemOf(presets, chosen.preset)));
    for (const chosen of inherited) {
      if (linted.has(ecosystemOf(presets, chosen.preset)) || gates.some(({ gate }) => gate.name === chosen.gateName)) continue;
      gates.push({ gate: { name: chosen.gateName, preset: chosen.preset }, why: `preset ${chosen.preset}, as at the root: it reads the root's settings from here, and this package's files are this config's to check` });
    }
  }
  return { dir: member.dir, gates, notes: member.detection.notes.map((note) => `${member.dir}: ${note}`) };
}

function kindOf(presets: Map<string, Preset>, id: string): Preset['kind'] | undefined {
  return presets.get(id)?.kind;
}

function ecosystemOf(presets: Map<string, Preset>, id: string): Preset['ecosystem'] | undefined {
  return presets.get(id)?.ecosystem;
}

/** "a, b and 3 more": a 40-package list stays one line. */
export function listDirs(dirs: string[], shown = 4): string {
  if (dirs.length <= shown) return dirs.length < 2 ? (dirs[0] ?? '') : `${dirs.slice(0, -1).join(', ')} and ${dirs.at(-1)}`;
  return `${dirs.slice(0, shown).join(', ')} and ${dirs.length - shown} more`;
}
