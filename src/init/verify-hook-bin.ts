import { SetupError } from '../errors.js';
import type { Finding } from '../doctor/judge-delivery.js';
import { gateHint } from '../package/gate-command.js';
import type { Installer } from '../harness/install/installer.js';
import { managerCommands, type PackageManager } from '../package/package-manager.js';
import type { ChosenBin } from './hook-command.js';

export interface VerifyInput {
  installer: Installer;
  chosen: ChosenBin;
  projectDir: string;
  /** The hook file is private to this developer (a personal or user-level install). */
  private: boolean;
  /** The gate init runs from, by its absolute path (bin/gate.cjs), when known. */
  selfPath: string | undefined;
  /** Runs a hook command from the launch directory as the harness would; doctor's check. */
  runs: (command: string) => Finding;
  /** The project's package manager; undefined when it is no Node package (a Python, Go or Rust project). */
  manager?: PackageManager | undefined;
  /** The project is a workspace's root (pnpm adds to it only with -w). */
  workspaceRoot?: boolean;
}

/**
 * The hook command init is about to write, run from the launch directory first (`--version`): a
 * command that does not run makes every stop pass silently. When it does not, a private install
 * falls back to the gate init itself runs from, by its path; otherwise init stops with the fix
 * and writes nothing.
 */
export function verifyHookBin(input: VerifyInput): { chosen: ChosenBin; note?: string } {
  const command = input.installer.command(input.chosen.bin);
  const first = input.runs(command);
  if (first.level === 'ok') return { chosen: input.chosen };
  const why = first.message.split(' — ').slice(1).join(' — ').replace(/\. (?:Is|Can) [^.]*\?$/, '') || first.message;
  if (input.private && input.selfPath !== undefined) {
    const program = /^[A-Za-z0-9._/-]+$/.test(input.selfPath) ? input.selfPath : `"${input.selfPath.replace(/(["\\$`])/g, '\\$1')}"`;
    const self: ChosenBin = { bin: { mode: 'global', relativePath: undefined, program }, why: `the gate init ran from, by its path: "${command}" does not run from here` };
    if (input.runs(input.installer.command(self.bin)).level === 'ok') {
      return { chosen: self, note: `The hook runs ${input.selfPath}: "${command}" does not run from ${input.projectDir} (${why}).` };
    }
  }
  const fix = describeFix(input);
  throw new SetupError(`the hook command would not run from ${input.projectDir}: ${command} — ${why}. Every stop would pass unchecked, so nothing was written. Fix: ${fix}.`);
}

/** In the project's package manager's words; a project that is no Node package gets a global install. */
function describeFix(input: VerifyInput): string {
  const commands = managerCommands(input.manager ?? 'npm', { workspaceRoot: input.workspaceRoot });
  const again = `"${commands.exec} gate init"`;
  if (input.chosen.bin.mode === 'local') return `install the project's dependencies (${commands.install}), then run ${again} again`;
  const personal = `or, for yourself only, "${gateHint('init --personal')}", which uses this gate by its path`;
  if (input.manager === undefined) return `install gate globally (npm i -g stopgate) and run "gate init" again; ${personal}`;
  return `install stopgate in this project (${commands.addStopgate}) and run ${again} again; or install it globally (npm i -g stopgate) and run "gate init"; ${personal}`;
}
