import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

export type InstallMode = 'local' | 'global' | 'npx';

export interface HookCommand {
  mode: InstallMode;
  /** What goes into the settings file: short, no environment assignments, safe with spaces. */
  command: string;
  why: string;
}

/**
 * The command the hook runs. Claude Code shows it to the model in brackets before every report,
 * runs it with /bin/sh from wherever the agent last `cd`-ed, and sets CLAUDE_PROJECT_DIR to the
 * launch directory — so a local install is addressed from there, quoted.
 */
export function chooseHookCommand(input: { projectDir: string; localBin: string | undefined; listedInPackageJson: boolean; ranThroughNpx: boolean; version: string }): HookCommand {
  if (input.localBin !== undefined || input.listedInPackageJson) {
    const bin = input.localBin ?? join(input.projectDir, 'node_modules', '.bin', 'gate');
    const path = relative(input.projectDir, bin).split(sep).join('/');
    const command = /^[A-Za-z0-9._/-]+$/.test(path) ? `"$CLAUDE_PROJECT_DIR"/${path} run` : `"$CLAUDE_PROJECT_DIR/${path.replace(/(["\\$`])/g, '\\$1')}" run`;
    const why = input.localBin ? `stopgate is installed in ${relative(input.projectDir, dirname(dirname(dirname(bin)))) || '.'}/node_modules` : 'package.json lists stopgate';
    return { mode: 'local', command, why };
  }
  if (input.ranThroughNpx) {
    return { mode: 'npx', command: `npx --yes stopgate@${input.version} run`, why: 'gate was run through npx and is not a dependency of this project' };
  }
  return { mode: 'global', command: 'gate run', why: 'gate is installed globally (every teammate needs `npm i -g stopgate`)' };
}

/** node_modules/.bin/gate from `dir` upwards (hoisted installs in monorepos), if there is one. */
export function findLocalBin(dir: string, stopAt: string | undefined): string | undefined {
  let current = dir;
  for (;;) {
    const candidate = join(current, 'node_modules', '.bin', 'gate');
    if (existsSync(candidate)) return candidate;
    if (current === stopAt) return undefined;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** npx runs packages it had to fetch from a cache folder named `_npx`. */
export function ranThroughNpx(scriptPath: string | undefined): boolean {
  if (!scriptPath) return false;
  try {
    return realpathSync(scriptPath).includes(`${sep}_npx${sep}`);
  } catch {
    return false;
  }
}
