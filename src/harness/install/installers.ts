import { UsageError } from '../../errors.js';
import type { HarnessName } from '../adapters.js';
import type { Installer } from './installer.js';

/**
 * Each harness's installer lives in `./<name>.ts` and exports `installer`; it is loaded only when
 * init, uninstall or doctor needs it.
 */
export async function loadInstaller(harness: HarnessName): Promise<Installer> {
  let module: unknown;
  try {
    module = await import(`./${harness}.ts`);
  } catch {
    throw new UsageError(`gate init --harness ${harness} is not supported yet`);
  }
  if (typeof module !== 'object' || module === null || !('installer' in module) || !isInstaller(module.installer)) {
    throw new Error(`src/harness/install/${harness}.ts does not export an installer`);
  }
  return module.installer;
}

function isInstaller(value: unknown): value is Installer {
  return typeof value === 'object' && value !== null && 'harness' in value && 'merge' in value && 'remove' in value && 'find' in value && 'file' in value && 'command' in value;
}
