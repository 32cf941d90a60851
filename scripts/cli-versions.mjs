// The agent CLIs the end-to-end tests drive: which npm package tells their newest version, and the
// version pinned. The install scripts and the tests read the version from here, so they can't
// drift apart; `npm run test:latest` points GATE_CLI_VERSIONS at a file of newer versions.
import { readFileSync } from 'node:fs';

/** @type {Record<string, { label: string, package: string, pinned: string }>} */
export const CLIS = {
  auggie: { label: 'Auggie', package: '@augmentcode/auggie', pinned: '0.36.0' },
  claude: { label: 'Claude Code', package: '@anthropic-ai/claude-code', pinned: '2.1.332' },
  codex: { label: 'Codex', package: '@openai/codex', pinned: '0.171.0' },
  copilot: { label: 'Copilot CLI', package: '@github/copilot', pinned: '1.0.102' },
  // The wrapper @factory/cli lags behind: the platform package carries the binary and the version.
  factory: { label: 'Factory Droid', package: `@factory/cli-${process.platform}-${process.arch}`, pinned: '0.225.2' },
  gemini: { label: 'Gemini CLI', package: '@google/gemini-cli', pinned: '0.61.0' },
  opencode: { label: 'OpenCode', package: 'opencode-ai', pinned: '1.18.33' },
  qoder: { label: 'Qoder CLI', package: '@qoder-ai/qodercli', pinned: '1.1.52' },
  qwen: { label: 'Qwen Code', package: '@qwen-code/qwen-code', pinned: '0.24.4' },
};

/**
 * The version to install and test: the pin, unless GATE_CLI_VERSIONS names a JSON file
 * (`{"claude": "2.1.332", …}`) that says otherwise.
 * @param {string} name a key of CLIS
 * @returns {string}
 */
export function cliVersion(name) {
  const cli = CLIS[name];
  if (!cli) throw new Error(`unknown CLI ${name}`);
  const file = process.env.GATE_CLI_VERSIONS;
  if (!file) return cli.pinned;
  const chosen = JSON.parse(readFileSync(file, 'utf8'))[name];
  return typeof chosen === 'string' ? chosen : cli.pinned;
}
