import { posix, resolve } from 'node:path';
import { LOCAL_FILE, TEAM_FILE } from '../config/find-config.js';
import type { InstallHooks, Installer } from '../harness/install/installer.js';
import type { FileChange } from './plan-install.js';
import type { MemberPlan } from './plan-workspace.js';
import { renderStarterConfig } from './starter-config.js';

export interface MemberConfigs {
  changes: FileChange[];
  /** Packages whose config already exists: kept as it is. */
  kept: string[];
}

/**
 * A config in each package that has something to gate: only gates, since the stop-wide settings
 * count in the root config alone. A package that already has a config keeps it, byte for byte.
 */
export function planMemberConfigs(
  projectDir: string,
  members: MemberPlan[],
  personal: boolean,
  read: (file: string) => string | undefined,
  schemaRefFor: (dir: string) => string | undefined,
): MemberConfigs {
  const file = personal ? LOCAL_FILE : TEAM_FILE;
  const changes: FileChange[] = [];
  const kept: string[] = [];
  for (const member of members) {
    if (member.gates.length === 0) continue;
    const display = posix.join(member.dir, file);
    // A package's team config already covers a personal install there, as at the root.
    if ([file, ...(personal ? [TEAM_FILE] : [])].some((name) => read(posix.join(member.dir, name)) !== undefined)) {
      kept.push(member.dir);
      continue;
    }
    const after = renderStarterConfig(member.gates.map((planned) => planned.gate), schemaRefFor(member.dir), undefined, { nested: true });
    changes.push({ path: resolve(projectDir, display), display, before: undefined, after });
  }
  return { changes, kept };
}

/**
 * `--each-package`: the root's hook entries in each package's hook file, with a command that
 * reaches gate from there, for an agent started in that package.
 */
export function planMemberHooks(
  projectDir: string,
  dirs: string[],
  installer: Installer,
  personal: boolean,
  hooks: InstallHooks,
  commandFor: (dir: string) => string,
  read: (file: string) => string | undefined,
): FileChange[] {
  const hookFile = installer.file(personal, '');
  return dirs.flatMap((dir) => {
    const display = posix.join(dir, hookFile);
    const before = read(display);
    const merged = installer.merge(before, { ...hooks, command: commandFor(dir) }, display);
    return merged.changed ? [{ path: resolve(projectDir, display), display, before, after: merged.text }] : [];
  });
}
