import { SetupError } from '../errors.js';
import type { Finding } from '../doctor/judge-delivery.js';
import type { Installer } from '../harness/install/installer.js';
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
  const why = first.message.split(' — ').slice(1).join(' — ').replace(/\. Is stopgate installed \(npm install\)\?$/, '') || first.message;
  if (input.private && input.selfPath !== undefined) {
    const program = /^[A-Za-z0-9._/-]+$/.test(input.selfPath) ? input.selfPath : `"${input.selfPath.replace(/(["\\$`])/g, '\\$1')}"`;
    const self: ChosenBin = { bin: { mode: 'global', relativePath: undefined, program }, why: `the gate init ran from, by its path: "${command}" does not run from here` };
    if (input.runs(input.installer.command(self.bin)).level === 'ok') {
      return { chosen: self, note: `The hook runs ${input.selfPath}: "${command}" does not run from ${input.projectDir} (${why}).` };
    }
  }
  const fix =
    input.chosen.bin.mode === 'local'
      ? 'install the project\'s dependencies (npm install), then run "npx gate init" again'
      : 'install stopgate in this project (npm i -D stopgate) and run "npx gate init" again; or install it globally (npm i -g stopgate); or, for yourself only, "gate init --personal", which uses this gate by its path';
  throw new SetupError(`the hook command would not run from ${input.projectDir}: ${command} — ${why}. Every stop would pass unchecked, so nothing was written. Fix: ${fix}.`);
}
