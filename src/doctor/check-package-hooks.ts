import { join } from 'node:path';
import { gateHint } from '../package/gate-command.js';
import { readIfPresent } from '../init/apply-changes.js';
import { findGateHooks } from '../harness/install/settings-merge.js';
import { detectWorkspaceKind, readWorkspace } from '../workspace/workspace-graph.js';
import type { Finding } from './judge-delivery.js';

/**
 * At a workspace root: whether an agent started in a package is gated too, which needs gate's hook
 * in that package's own settings (`gate init --each-package`). Nothing to say elsewhere.
 */
export async function checkPackageHooks(projectDir: string, env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const kind = detectWorkspaceKind(projectDir);
  if (kind === undefined) return [];
  let dirs: string[];
  try {
    dirs = (await readWorkspace(projectDir, kind, { env })).packages.map((pkg) => pkg.dir);
  } catch (error) {
    return [{ level: 'info', message: `the ${kind} workspace could not be read: ${error instanceof Error ? error.message : String(error)}` }];
  }
  if (dirs.length === 0) return [];
  const hooked = dirs.filter((dir) => ['settings.json', 'settings.local.json'].some((file) => hasStopHook(join(projectDir, dir, '.claude', file))));
  if (hooked.length === dirs.length) return [{ level: 'ok', message: `every package of the ${kind} workspace (${dirs.length}) has gate's hooks: an agent started in any of them is gated` }];
  const fix = `start the agent here, or run "${gateHint('init --each-package')}" to gate one started in a package too`;
  if (hooked.length === 0) return [{ level: 'info', message: `an agent started in one of the ${dirs.length} packages is not gated (Claude Code reads hooks only where it starts): ${fix}` }];
  return [{ level: 'info', message: `${hooked.length} of the ${dirs.length} packages have gate's hooks; an agent started in another is not gated: ${fix}` }];
}

function hasStopHook(path: string): boolean {
  const text = readIfPresent(path);
  if (text === undefined) return false;
  try {
    return findGateHooks(text, path).some((hook) => hook.event === 'Stop');
  } catch {
    return false;
  }
}
