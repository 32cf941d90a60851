// The pinned Factory Droid CLI (scripts/install-factory.mjs), driven offline against the Chat
// Completions mock through a custom model.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentCli } from '../chat-completions-scenario.js';
import { cliVersion } from '../../../scripts/cli-versions.mjs';

export const FACTORY_VERSION = cliVersion('factory');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MODEL = 'mock-model';

/** The native binary; throws when the pinned CLI is not installed (no test ever skips). */
export function droidBinPath(): string {
  const bin = join(ROOT, '.cache', 'factory-droid', FACTORY_VERSION, 'node_modules', '@factory', `cli-${process.platform}-${process.arch}`, 'bin', 'droid');
  if (!existsSync(bin)) throw new Error(`Factory Droid ${FACTORY_VERSION} is not installed: run node scripts/install-factory.mjs`);
  return bin;
}

export const droid: AgentCli = {
  label: `Factory Droid ${FACTORY_VERSION}`,
  shell: (command) => ({ toolCalls: [{ name: 'Execute', arguments: { command, riskLevel: 'low', riskLevelReason: 'edits a file in the project' } }] }),
  prepareHome(home, _repo, mock) {
    const settings = {
      customModels: [{ model: MODEL, displayName: 'Mock', provider: 'generic-chat-completion-api', baseUrl: mock.url, apiKey: 'mock-key', maxOutputTokens: 4096 }],
    };
    mkdirSync(join(home, '.factory'), { recursive: true });
    writeFileSync(join(home, '.factory', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  },
  command: (prompt) => ({
    file: droidBinPath(),
    args: ['exec', '-m', `custom:${MODEL}`, '--auto', 'high', prompt],
    // Airgap mode skips the Factory-bound work (update check, session sync, crash reports,
    // telemetry) that otherwise retries api.factory.ai until it gives up: 6–8 s after the
    // turn's last request before droid exits (docs.factory.ai, "Airgapped Deployment").
    env: { FACTORY_AIRGAP_ENABLED: 'true' },
  }),
};
