// The pinned GitHub Copilot CLI (scripts/install-copilot.mjs), driven offline against the Chat
// Completions mock as a custom provider.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentCli } from '../chat-completions-scenario.js';
import { cliVersion } from '../../../scripts/cli-versions.mjs';

export const COPILOT_VERSION = cliVersion('copilot');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const INSTALL = join(ROOT, '.cache', 'copilot', COPILOT_VERSION);

/** The native binary; throws when the pinned CLI is not installed (no test ever skips). */
export function copilotBinPath(): string {
  const bin = join(INSTALL, 'node_modules', '@github', `copilot-${process.platform}-${process.arch}`, 'copilot');
  if (!existsSync(bin)) throw new Error(`Copilot CLI ${COPILOT_VERSION} is not installed: run node scripts/install-copilot.mjs`);
  return bin;
}

export const copilot: AgentCli = {
  label: `Copilot CLI ${COPILOT_VERSION}`,
  shell: (command) => ({ toolCalls: [{ name: 'bash', arguments: { command, description: 'Edit a file' } }] }),
  prepareHome(home, repo) {
    // The enable step init prints: Copilot runs project hooks only in a trusted folder.
    mkdirSync(join(home, '.copilot'), { recursive: true });
    writeFileSync(join(home, '.copilot', 'config.json'), `${JSON.stringify({ trustedFolders: [repo] }, null, 2)}\n`);
  },
  command: (prompt, home, mock) => ({
    file: copilotBinPath(),
    args: ['-p', prompt, '--allow-all-tools', '--no-auto-update'],
    env: {
      COPILOT_HOME: join(home, '.copilot'),
      // The runtime unpacked once by the install script, not 235 MB per run.
      XDG_CACHE_HOME: join(INSTALL, 'xdg-cache'),
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_BASE_URL: mock.url,
      COPILOT_PROVIDER_API_KEY: 'mock-key',
      COPILOT_MODEL: 'gpt-4.1',
    },
  }),
};
