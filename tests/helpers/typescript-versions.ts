import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './temp-repo.js';

/**
 * The two TypeScripts the tsc preset is proven on: 5.9 (gate's devDependency) and 7 (the native
 * compiler, which scripts/install-tools.mjs installs apart, as a user's project does). A test
 * project links one of these folders as its own node_modules.
 */
export const TYPESCRIPTS = [
  { name: 'TypeScript 5.9', major: 5, nodeModules: join(PROJECT_ROOT, 'node_modules') },
  { name: 'TypeScript 7', major: 7, nodeModules: join(PROJECT_ROOT, '.cache', 'tools', 'typescript7', 'node_modules') },
] as const;

export const TYPESCRIPT_7 = TYPESCRIPTS[1];

/** Whether TypeScript 7 is installed; a missing one fails the file, as requireTools does, unless GATE_TEST_ALLOW_MISSING_TOOLS=1. */
export function requireTypescript7(): boolean {
  if (existsSync(join(TYPESCRIPT_7.nodeModules, 'typescript', 'package.json'))) return true;
  if (process.env['GATE_TEST_ALLOW_MISSING_TOOLS'] === '1') return false;
  throw new Error('TypeScript 7 not found in .cache/tools/typescript7: run node scripts/install-tools.mjs (or set GATE_TEST_ALLOW_MISSING_TOOLS=1 to skip)');
}
