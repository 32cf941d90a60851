// The pinned Auggie CLI (scripts/install-auggie.mjs), run as `auggie --print` against the Augment
// backend mock, in a project made from the packed template (tests/harness/template-projects.ts).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GateProject } from '../../claude/gate-project.mjs';
import { runProcess, type ProcessResult } from '../chat-completions-scenario.js';
import { cliVersion } from '../../../scripts/cli-versions.mjs';
import type { AugmentMock } from './mock-augment.js';

export const AUGGIE_VERSION = cliVersion('auggie');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The entry script; throws when the pinned CLI is not installed (no test ever skips). */
export function auggieEntryPath(): string {
  const entry = join(ROOT, '.cache', 'auggie', AUGGIE_VERSION, 'node_modules', '@augmentcode', 'auggie', 'augment.mjs');
  if (!existsSync(entry)) throw new Error(`Auggie ${AUGGIE_VERSION} is not installed: run node scripts/install-auggie.mjs`);
  return entry;
}

/** One headless turn: `auggie --print PROMPT` in the repository, with the project's own HOME. */
export function runAuggie(project: GateProject, mock: AugmentMock, prompt: string): Promise<ProcessResult> {
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: project.home,
    ...project.env,
    AUGMENT_SESSION_AUTH: mock.sessionAuth,
    AUGMENT_DISABLE_AUTO_UPDATE: '1',
  };
  return runProcess({ file: process.execPath, args: [auggieEntryPath(), '--print', prompt], env, cwd: project.repo }, 180_000);
}
