import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** Which lockfile names which manager, in the order init weighs them. */
export const LOCKFILES: ReadonlyArray<readonly [string, PackageManager]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

export interface ManagerCommands {
  /** Installs the project's dependencies (a teammate's fresh clone). */
  install: string;
  /** Adds stopgate as a devDependency. */
  addStopgate: string;
  /** Runs a bin of the project's dependencies: `${exec} gate doctor`. */
  exec: string;
}

/**
 * What a user of each manager types. In a pnpm workspace's root `pnpm add` refuses without -w
 * (ERR_PNPM_ADDING_TO_ROOT), and npm cannot install there at all (EUNSUPPORTEDPROTOCOL on `link:`).
 */
export function managerCommands(manager: PackageManager, options: { workspaceRoot?: boolean } = {}): ManagerCommands {
  switch (manager) {
    case 'pnpm':
      return { install: 'pnpm install', addStopgate: `pnpm add -D${options.workspaceRoot ? ' -w' : ''} stopgate`, exec: 'pnpm exec' };
    case 'yarn':
      return { install: 'yarn install', addStopgate: 'yarn add -D stopgate', exec: 'yarn' };
    case 'bun':
      return { install: 'bun install', addStopgate: 'bun add -d stopgate', exec: 'bunx' };
    default:
      return { install: 'npm install', addStopgate: 'npm i -D stopgate', exec: 'npx' };
  }
}

/**
 * The manager of the project at `dir`, from its lockfile, else package.json's `packageManager`,
 * else npm: a few stats, for a hint about to be printed (init weighs the same facts with notes).
 * A workspace's member has neither: its root's, up to the repository's root, decide.
 */
export function detectManager(dir: string): PackageManager {
  for (let at = dir; ; at = dirname(at)) {
    const found = managerAt(at);
    if (found !== undefined) return found;
    if (existsSync(join(at, '.git')) || dirname(at) === at) return 'npm';
  }
}

/** What the project's own runner of its dependencies' bins is: `npx`, `pnpm exec`, `yarn`, `bunx`. */
export function projectRunner(dir: string): string {
  return managerCommands(detectManager(dir)).exec;
}

function managerAt(dir: string): PackageManager | undefined {
  const locked = LOCKFILES.find(([file]) => existsSync(join(dir, file)));
  if (locked) return locked[1];
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const declared = typeof manifest === 'object' && manifest !== null && 'packageManager' in manifest ? manifest.packageManager : undefined;
    return LOCKFILES.find(([, manager]) => typeof declared === 'string' && (declared === manager || declared.startsWith(`${manager}@`)))?.[1];
  } catch {
    // No readable package.json: the folder above may say.
    return undefined;
  }
}
