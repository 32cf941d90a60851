import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { HookBin } from '../harness/install/installer.js';

export interface ChosenBin {
  bin: HookBin;
  why: string;
}

export interface BinFacts {
  projectDir: string;
  localBin: string | undefined;
  listedInPackageJson: boolean;
  ranThroughNpx: boolean;
  version: string;
  /** The hook file is the user's own, read in every repository. */
  userLevel?: boolean;
  globalOnPath?: boolean;
  /** init runs in gate's own checkout: the hook runs this checkout's build (gate gates itself). */
  ownCheckout?: boolean;
}

/**
 * How the hook reaches gate: a local install (found, or listed in package.json for a teammate's
 * fresh clone), else a pinned npx when init itself ran through npx, else a global install. A
 * user-level hook runs in every repository, so it never uses a path relative to one: a global
 * install if there is one, else npx when init ran through it, else this checkout's gate by its
 * absolute path.
 */
export function chooseHookBin(input: BinFacts): ChosenBin {
  if (input.userLevel) {
    if (input.globalOnPath) return { bin: { mode: 'global', relativePath: undefined, program: 'gate' }, why: 'a user-level hook runs in every repository: the global gate' };
    if (input.localBin !== undefined && !input.ranThroughNpx) {
      const program = /^[A-Za-z0-9._/-]+$/.test(input.localBin) ? input.localBin : `"${input.localBin.replace(/(["\\$`])/g, '\\$1')}"`;
      return { bin: { mode: 'global', relativePath: undefined, program }, why: 'a user-level hook runs in every repository: this checkout\'s gate by its absolute path (install gate globally, `npm i -g stopgate`, and run init again for one that does not depend on this checkout)' };
    }
    return { bin: { mode: 'npx', relativePath: undefined, program: `npx --yes stopgate@${input.version}` }, why: 'a user-level hook runs in every repository, and gate is not installed globally' };
  }
  if (input.ownCheckout) {
    return { bin: { mode: 'local', relativePath: 'bin/gate.cjs', program: undefined }, why: "this is gate's own checkout: the hook runs its build (npm run build)" };
  }
  if (input.localBin !== undefined || input.listedInPackageJson) {
    const bin = input.localBin ?? join(input.projectDir, 'node_modules', '.bin', 'gate');
    const relativePath = relative(input.projectDir, bin).split(sep).join('/');
    const why = input.localBin ? `stopgate is installed in ${relative(input.projectDir, dirname(dirname(dirname(bin)))) || '.'}/node_modules` : 'package.json lists stopgate';
    return { bin: { mode: 'local', relativePath, program: undefined }, why };
  }
  if (input.ranThroughNpx) {
    return { bin: { mode: 'npx', relativePath: undefined, program: `npx --yes stopgate@${input.version}` }, why: 'gate was run through npx and is not a dependency of this project' };
  }
  return { bin: { mode: 'global', relativePath: undefined, program: 'gate' }, why: 'gate is installed globally (every teammate needs `npm i -g stopgate`)' };
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
