// The pinned Gemini CLI (scripts/install-gemini.mjs), driven offline against mock-gemini.mjs.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentCli } from '../chat-completions-scenario.js';
import { cliVersion } from '../../../scripts/cli-versions.mjs';

export const GEMINI_VERSION = cliVersion('gemini');
export const GEMINI_MODEL = 'gemini-2.5-flash';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The CLI's entry script; throws when the pinned CLI is not installed (no test ever skips). */
export function geminiEntryPath(): string {
  const entry = join(ROOT, '.cache', 'gemini-cli', GEMINI_VERSION, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
  if (!existsSync(entry)) throw new Error(`Gemini CLI ${GEMINI_VERSION} is not installed: run node scripts/install-gemini.mjs`);
  return entry;
}

/** The user settings the tests start from: an API key login (a base URL alone selects "gateway", which -p refuses) and nothing that phones home. */
export const USER_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

export const gemini: AgentCli = {
  label: `Gemini CLI ${GEMINI_VERSION}`,
  shell: (command) => ({ toolCalls: [{ name: 'run_shell_command', arguments: { command } }] }),
  prepareHome(home) {
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'settings.json'), `${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
  },
  command: (prompt, _home, mock) => ({
    file: process.execPath,
    args: [geminiEntryPath(), '-p', prompt, '-m', GEMINI_MODEL, '--approval-mode', 'yolo', '--output-format', 'json'],
    env: {
      GEMINI_API_KEY: 'mock-key',
      GOOGLE_GEMINI_BASE_URL: mock.url,
      // The enable step for CI: project hooks run only in a trusted folder.
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      // One process instead of a relaunched child with a bigger heap.
      GEMINI_CLI_NO_RELAUNCH: 'true',
    },
  }),
};
