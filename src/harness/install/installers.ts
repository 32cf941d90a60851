import { UsageError } from '../../errors.js';
import { HARNESS_NAMES, type HarnessName } from '../adapters.js';
import { claudeInstaller } from './claude.js';
import type { Installer } from './installer.js';

/** The installer of each harness, loaded only when init, uninstall or doctor needs it. */
const LOADERS: Partial<Record<HarnessName, () => Promise<Installer>>> = {
  claude: async () => claudeInstaller,
};

export async function loadInstaller(harness: HarnessName): Promise<Installer> {
  const load = LOADERS[harness];
  if (!load) throw new UsageError(`gate init --harness ${harness} is not supported yet`);
  return load();
}

export function supportedHarnesses(): HarnessName[] {
  return HARNESS_NAMES.filter((name) => LOADERS[name] !== undefined);
}
