import type { HarnessName } from '../adapters.js';

/** Where and how one harness's hook entries are written. One module per harness implements it. */
export interface Installer {
  harness: HarnessName;
  /**
   * The file init edits. Relative paths are under the project directory; a harness with no
   * uncommitted project file installs `--personal` at user level (an absolute path under `home`).
   */
  file(personal: boolean, home: string): string;
  /** The files a personal install adds that must stay out of git (relative to the project). */
  privateFiles(personal: boolean): string[];
  /**
   * The hook command for this harness. `bin` is how gate is reached (`"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate`
   * style for a local install, `gate` or `npx --yes stopgate@x` otherwise); the installer puts
   * `run --harness NAME` and whatever the harness needs after it.
   */
  command(bin: HookBin): string;
  /** Adds or refreshes gate's entries (stop and turn-start), keeping everything else byte for byte. */
  merge(existing: string | undefined, hooks: InstallHooks, fileName: string): { text: string; changed: boolean };
  /** Removes only gate's entries; `empty` when nothing else is left in the file. */
  remove(existing: string, fileName: string): { text: string; changed: boolean; empty: boolean };
  /** gate's entries found in a file, for doctor. */
  find(text: string, fileName: string): Array<{ event: string; command: string; timeoutSeconds?: number }>;
  /** What the user must still do for the harness to run the hook (trust, approval), if anything. */
  enableStep: string | undefined;
}

export interface InstallHooks {
  command: string;
  /** Seconds; installers convert to the harness's unit (Gemini: milliseconds). */
  stopTimeoutSeconds: number;
  turnStartTimeoutSeconds: number;
  /** Cursor's `loop_limit` equals gate's own bound. */
  maxBlocks: number;
  /** The config gates subagents too (`subagents: true`): Claude Code then gets a SubagentStop entry. */
  subagents?: boolean;
  /** Shown while the stop hook runs, where the harness has a field for it (Claude Code's `statusMessage`). */
  stopStatus?: string;
}

export interface HookBin {
  mode: 'local' | 'global' | 'npx';
  /** For a local install: the bin's path relative to the project directory, like `node_modules/.bin/gate`. */
  relativePath: string | undefined;
  /** For global and npx installs: the program words, like `gate` or `npx --yes stopgate@1.2.3`. */
  program: string | undefined;
}
