import { gateCommand } from '../package/gate-command.js';
import type { PlannedGate } from './plan-workspace.js';
import { listDirs } from './plan-workspace.js';
import type { WorkspaceSetup } from './workspace-setup.js';

const KIND_NAMES = { npm: 'npm workspace', pnpm: 'pnpm workspace', yarn: 'yarn workspace', go: 'Go workspace (go.work)', cargo: 'cargo workspace', uv: 'uv workspace' } as const;
const MEMBER_NAMES = { npm: 'package', pnpm: 'package', yarn: 'package', go: 'module', cargo: 'crate', uv: 'member' } as const;

/** The plan's lines for a workspace root: which config goes where, with each gate's reason. */
export function describeWorkspace(setup: WorkspaceSetup, configFile: string, rootConfigKept: boolean): string[] {
  const { layout } = setup;
  const count = setup.dirs.length;
  const lines = [setup.unread === undefined ? `${KIND_NAMES[layout.kind]} with ${count} ${MEMBER_NAMES[layout.kind]}${count === 1 ? '' : 's'}.` : `${KIND_NAMES[layout.kind]} (its members could not be listed: ${setup.unread}).`];
  if (layout.mode !== 'packages') {
    lines.push(...layout.notes);
    if (!rootConfigKept) lines.push(`${configFile} (root):`, ...gateLines(layout.rootGates));
    return lines;
  }
  if (!rootConfigKept) {
    lines.push(`${configFile} (root): "workspaces": "${layout.kind}" — a stop also runs the packages that depend on a changed one.`);
    lines.push(...gateLines(layout.rootGates));
  }
  const written = new Set(setup.files.configs.map((change) => change.display));
  // Packages with the same gates for the same reasons share one entry: twelve alike read as one.
  const groups = new Map<string, string[]>();
  for (const member of layout.members) {
    if (!written.has(`${member.dir}/${configFile}`)) continue;
    const key = gateLines(member.gates).join('\n');
    groups.set(key, [...(groups.get(key) ?? []), member.dir]);
  }
  for (const [gates, dirs] of groups) {
    const where = dirs.length === 1 ? `${dirs[0]}/${configFile}` : `${configFile} in ${listDirs(dirs, 6)} (${dirs.length} ${MEMBER_NAMES[layout.kind]}s)`;
    lines.push(`${where}:`, gates);
  }
  if (setup.kept.length > 0) lines.push(`Kept as they are: the configs in ${listDirs(setup.kept)}.`);
  lines.push(...layout.notes.map((note) => `Note: ${note}`));
  lines.push(...layout.members.flatMap((member) => member.notes.map((note) => `Note: ${note}`)));
  return lines;
}

function gateLines(gates: PlannedGate[]): string[] {
  if (gates.length === 0) return ['  (no gates of its own)'];
  return gates.map(({ gate, why }) => `  ${gate.name.padEnd(10)} ${why}`);
}

/**
 * Claude Code reads settings only from its launch directory: said in two lines, with the way to gate
 * an agent started in a package.
 */
export function describeLaunch(setup: WorkspaceSetup, hookFile: string): string[] {
  const first = `Claude Code reads hooks only from the directory it is started in: ${hookFile} here gates an agent started at the root, not one started in a package.`;
  if (setup.commands.size === 0) return [first, `To gate an agent started in a package too, run \`${gateCommand()} init --each-package\` here (or start the agent at the root).`];
  const byCommand = new Map<string, string[]>();
  for (const [dir, command] of setup.commands) byCommand.set(command, [...(byCommand.get(command) ?? []), dir]);
  const commands = [...byCommand].map(([command, dirs]) => (byCommand.size === 1 ? command : `${command} (${listDirs(dirs)})`));
  return [first, `--each-package: each package gets its own ${hookFile} too, with the hook command ${commands.join('; ')}.`];
}
