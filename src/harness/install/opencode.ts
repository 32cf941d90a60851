import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SetupError } from '../../errors.js';
import { packageRoot } from '../../package/package-root.js';
import { splitCommand } from '../../plan/split-command.js';
import type { HookBin, Installer, InstallHooks } from './installer.js';

/**
 * OpenCode has no hook that can refuse a stop: gate is a generated plugin (templates/opencode-plugin.js)
 * that listens for `session.idle`, runs `gate run --harness opencode`, and sends a refusal's report
 * as the next user message. The team's plugin is committed; a personal one sits beside it, gitignored.
 * Measured on OpenCode 1.18.33 (docs/harness-opencode.md).
 */
export const installer: Installer = {
  harness: 'opencode',
  file: (personal) => (personal ? '.opencode/plugin/gate.local.js' : '.opencode/plugin/gate.js'),
  privateFiles: (personal) => (personal ? ['.opencode/plugin/gate.local.js'] : []),
  command: (bin) => `${programWords(bin)} run --harness opencode`,
  merge(existing, hooks, fileName) {
    if (existing !== undefined && readPlugin(existing) === undefined) {
      throw new SetupError(`${fileName} exists and was not written by gate init (or was edited since); move it away, then run gate init again`);
    }
    const text = renderPlugin(hooks);
    return { text, changed: text !== existing };
  },
  remove(existing, fileName) {
    if (readPlugin(existing) !== undefined) return { text: '', changed: true, empty: true };
    if (existing.includes(MARKER)) throw new SetupError(`${fileName} was edited since gate init wrote it, so it is kept; delete it yourself if you no longer want it`);
    return { text: existing, changed: false, empty: false };
  },
  find(text) {
    const plugin = readPlugin(text);
    if (plugin === undefined) return [];
    const command = plugin.command.join(' ');
    return [
      { event: 'session.idle', command, timeoutSeconds: plugin.stopTimeoutMs / 1000 },
      { event: 'chat.message', command, timeoutSeconds: plugin.startTimeoutMs / 1000 },
    ];
  },
  enableStep: 'OpenCode loads plugins when it starts: restart it in this project. It cannot veto a stop; the plugin sends the report as a new message instead.',
};

/** The line every generated plugin starts with. */
const MARKER = '// gate (npm: stopgate) for OpenCode.';
const TOKENS = { command: '__GATE_COMMAND__', maxBlocks: '__MAX_BLOCKS__', stopTimeout: '__STOP_TIMEOUT_MS__', startTimeout: '__START_TIMEOUT_MS__' } as const;

/** The plugin's full text for these hooks. */
export function renderPlugin(hooks: InstallHooks, template = readTemplate()): string {
  const values: Record<string, string> = {
    [TOKENS.command]: JSON.stringify(splitCommand(hooks.command)),
    [TOKENS.maxBlocks]: String(hooks.maxBlocks),
    [TOKENS.stopTimeout]: String(hooks.stopTimeoutSeconds * 1000),
    [TOKENS.startTimeout]: String(hooks.turnStartTimeoutSeconds * 1000),
  };
  return template.replace(/__[A-Z_]+__/g, (token) => values[token] ?? token);
}

/** What a plugin file gate generated was made with; undefined for any other text (or an edited copy). */
export function readPlugin(text: string, template = readTemplate()): { command: string[]; maxBlocks: number; stopTimeoutMs: number; startTimeoutMs: number } | undefined {
  const order: string[] = [];
  const pattern = template
    .split(/(__[A-Z_]+__)/)
    .map((piece, index) => {
      if (index % 2 === 0) return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      order.push(piece);
      return piece === TOKENS.command ? '(\\[[^\\n]*\\])' : '(\\d+)';
    })
    .join('');
  const match = new RegExp(`^${pattern}$`).exec(text.replace(/\r\n/g, '\n'));
  if (match === null) return undefined;
  const found = new Map(order.map((token, index) => [token, match[index + 1] ?? '']));
  let command: unknown;
  try {
    command = JSON.parse(found.get(TOKENS.command) ?? '');
  } catch {
    return undefined;
  }
  if (!Array.isArray(command) || command.length === 0 || !command.every((word): word is string => typeof word === 'string')) return undefined;
  return {
    command,
    maxBlocks: Number(found.get(TOKENS.maxBlocks)),
    stopTimeoutMs: Number(found.get(TOKENS.stopTimeout)),
    startTimeoutMs: Number(found.get(TOKENS.startTimeout)),
  };
}

function readTemplate(): string {
  const text = readFileSync(join(packageRoot(), 'templates', 'opencode-plugin.js'), 'utf8');
  if (!text.startsWith(MARKER)) throw new Error(`templates/opencode-plugin.js must start with "${MARKER}"`);
  return text;
}

/** The plugin runs gate without a shell: a local install as a path relative to the project directory. */
function programWords(bin: HookBin): string {
  if (bin.mode !== 'local' || bin.relativePath === undefined) return bin.program ?? 'gate';
  return /^[A-Za-z0-9._/-]+$/.test(bin.relativePath) ? bin.relativePath : `'${bin.relativePath.replace(/'/g, `'\\''`)}'`;
}
