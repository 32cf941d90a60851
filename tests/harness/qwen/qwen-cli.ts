// The pinned Qwen Code CLI (scripts/install-qwen.mjs), driven offline against the Chat Completions mock.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentCli } from '../chat-completions-scenario.js';
import { cliVersion } from '../../../scripts/cli-versions.mjs';

export const QWEN_VERSION = cliVersion('qwen');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The entry script; throws when the pinned CLI is not installed (no test ever skips). */
export function qwenEntryPath(): string {
  const entry = join(ROOT, '.cache', 'qwen-code', QWEN_VERSION, 'node_modules', '@qwen-code', 'qwen-code', 'cli-entry.js');
  if (!existsSync(entry)) throw new Error(`Qwen Code ${QWEN_VERSION} is not installed: run node scripts/install-qwen.mjs`);
  return entry;
}

export const qwen: AgentCli = {
  label: `Qwen Code ${QWEN_VERSION}`,
  shell: (command) => ({ toolCalls: [{ name: 'run_shell_command', arguments: { command } }] }),
  prepareHome(home) {
    // OpenAI-compatible auth from the environment; nothing phones home.
    const settings = {
      security: { auth: { selectedType: 'openai' } },
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      // Background memory and skill agents would make model calls of their own after the turn.
      memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
    };
    mkdirSync(join(home, '.qwen'), { recursive: true });
    writeFileSync(join(home, '.qwen', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  },
  command: (prompt, _home, mock) => ({
    // Qwen 0.24.4 says node>=22 but runs headless on Node 20 (measured).
    file: process.execPath,
    args: [qwenEntryPath(), '-p', prompt, '--approval-mode', 'yolo'],
    env: {
      OPENAI_API_KEY: 'mock-key',
      OPENAI_BASE_URL: mock.url,
      OPENAI_MODEL: 'mock-model',
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
      // Qwen starts itself again as a child with a larger --max-old-space-size (half the machine's
      // memory) unless this is set: a second load of its bundle, 4–5 s of each turn at CI's load.
      QWEN_CODE_NO_RELAUNCH: 'true',
    },
  }),
};
