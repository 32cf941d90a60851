import { join, posix, relative, resolve, sep } from 'node:path';
import { LOCAL_FILE, TEAM_FILE } from '../config/find-config.js';
import type { Preset } from '../config/schema.js';
import type { HookBin, Installer } from '../harness/install/installer.js';
import type { Detection } from './detect-presets.js';
import { findLocalBin, type ChosenBin } from './hook-command.js';
import type { WorkspaceFiles } from './plan-install.js';
import { planMemberConfigs, planMemberHooks } from './plan-members.js';
import { planWorkspaceLayout, type WorkspaceLayout } from './plan-workspace.js';
import { findRootCoverage } from './root-coverage.js';
import type { Workspace } from './read-members.js';

export interface WorkspaceSetup {
  layout: WorkspaceLayout;
  files: WorkspaceFiles;
  /** Packages whose config exists and is kept. */
  kept: string[];
  /** Every package's dir, relative to the root. */
  dirs: string[];
  /** Why the packages could not be listed (cargo metadata failed), if so. */
  unread: string | undefined;
  /** The hook command in each package (`--each-package`), by dir. */
  commands: Map<string, string>;
  notes: string[];
}

export interface SetupInputs {
  workspace: Workspace;
  projectDir: string;
  personal: boolean;
  eachPackage: boolean;
  presets: Map<string, Preset>;
  detection: Detection;
  installer: Installer;
  bin: ChosenBin;
  schemaRef: string | undefined;
  read: (file: string) => string | undefined;
}

/** What init writes at a workspace root besides the root's own files. */
export function planWorkspaceSetup(inputs: SetupInputs): WorkspaceSetup {
  const { workspace } = inputs;
  const { kind } = workspace.graph;
  const coverage = kind !== 'npm' && kind !== 'pnpm' && kind !== 'yarn' ? undefined : findRootCoverage(inputs.projectDir, inputs.detection, workspace.members);
  const layout = planWorkspaceLayout({ kind, root: inputs.detection, members: workspace.members, packageManager: inputs.detection.packageManager?.name ?? 'npm', presets: inputs.presets, coverage });
  const notes: string[] = [];
  const configFile = inputs.personal ? LOCAL_FILE : TEAM_FILE;
  const rootConfig = inputs.read(configFile);
  let writeMembers = layout.mode === 'packages';
  if (writeMembers && rootConfig !== undefined && !setsWorkspaces(rootConfig)) {
    writeMembers = false;
    notes.push(`${configFile} has no "workspaces" key, so the packages are left to it and no package config is written. To gate each package with its own tools, add "workspaces": "${kind}" to it and run gate init again.`);
  }
  // On top of a team install, the team's configs apply, in the packages too.
  if (inputs.personal && rootConfig === undefined && inputs.read(TEAM_FILE) !== undefined) writeMembers = false;
  const members = writeMembers ? layout.members : [];
  const schemaRefFor = (dir: string) => (inputs.schemaRef === undefined ? undefined : `${'../'.repeat(dir.split('/').length)}${inputs.schemaRef.replace(/^\.\//, '')}`);
  const configs = planMemberConfigs(inputs.projectDir, members, inputs.personal, inputs.read, schemaRefFor);

  const dirs = workspace.graph.packages.map((pkg) => pkg.dir);
  const commands = new Map(inputs.eachPackage ? dirs.map((dir) => [dir, inputs.installer.command(memberBin(inputs, dir))]) : []);
  const files: WorkspaceFiles = {
    rootGates: layout.rootGates.map((planned) => planned.gate),
    workspacesKey: layout.workspacesKey,
    configs: configs.changes,
    hookFiles: (hooks) => planMemberHooks(inputs.projectDir, [...commands.keys()], inputs.installer, inputs.personal, hooks, (dir) => commands.get(dir) ?? hooks.command, inputs.read),
    privateFiles: [...commands.keys()].flatMap((dir) => inputs.installer.privateFiles(inputs.personal).map((file) => posix.join(dir, file))),
  };
  return { layout, files, kept: configs.kept, dirs, unread: workspace.unread, commands, notes };
}

function setsWorkspaces(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && 'workspaces' in value;
  } catch {
    return false;
  }
}

/** The root's way of reaching gate, from a package: its own node_modules/.bin if it has one, else the root's, relatively. */
function memberBin(inputs: SetupInputs, dir: string): HookBin {
  const { bin } = inputs.bin;
  if (bin.mode !== 'local' || bin.relativePath === undefined) return bin;
  const memberDir = join(inputs.projectDir, dir);
  const own = findLocalBin(memberDir, inputs.projectDir);
  const target = own ?? resolve(inputs.projectDir, bin.relativePath);
  return { ...bin, relativePath: relative(memberDir, target).split(sep).join('/') };
}
