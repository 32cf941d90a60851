// The pinned OpenCode CLI (scripts/install-opencode.mjs) as `opencode serve`, driven offline over its
// HTTP API against the Chat Completions mock (a custom OpenAI-compatible provider).
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Step } from '../chat-completions-mock.mjs';
import { cliVersion } from '../../../scripts/cli-versions.mjs';

export const OPENCODE_VERSION = cliVersion('opencode');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MODEL = 'mock-model';

/** The native binary; throws when the pinned CLI is not installed (no test ever skips). */
export function opencodeBinPath(): string {
  const glibc = 'glibcVersionRuntime' in (process.report.getReport() as { header: object }).header;
  const platform = process.platform === 'linux' ? `linux-${process.arch}${glibc ? '' : '-musl'}` : `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const bin = join(ROOT, '.cache', 'opencode', OPENCODE_VERSION, 'node_modules', `opencode-${platform}`, 'bin', process.platform === 'win32' ? 'opencode.exe' : 'opencode');
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    throw new Error(`OpenCode ${OPENCODE_VERSION} is not installed (no executable at ${bin}): run node scripts/install-opencode.mjs`);
  }
  return bin;
}

/** OpenCode's shell tool. */
export const shell = (command: string): Step => ({ toolCalls: [{ name: 'bash', arguments: { command, description: 'Run a shell command' } }] });

/** Where OpenCode keeps its config, data, cache and state under a test HOME. */
export function xdgEnv(home: string): Record<string, string> {
  return {
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
}

/**
 * OpenCode installs `@opencode-ai/plugin` from npm into every config folder it reads (the user's
 * and each project `.opencode/`) at start, unless the folder has a node_modules and a lock listing
 * it; offline that install hangs. gate's plugin imports nothing from it, so an empty node_modules and
 * the two manifests are enough. The .gitignore is the one OpenCode writes itself.
 */
export function seedPluginDependencies(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  const dependencies = { '@opencode-ai/plugin': OPENCODE_VERSION };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ dependencies }, null, 2)}\n`);
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify({ name: 'opencode-config', lockfileVersion: 3, requires: true, packages: { '': { dependencies } } }, null, 2)}\n`);
  writeFileSync(join(dir, '.gitignore'), 'node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore\n');
}

/** The user config: the mock as the only provider, everything allowed, nothing that phones home. */
export function writeOpencodeConfig(home: string, mockUrl: string): void {
  const dir = join(home, '.config', 'opencode');
  mkdirSync(dir, { recursive: true });
  seedPluginDependencies(dir);
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: { mock: { npm: '@ai-sdk/openai-compatible', name: 'Mock', options: { baseURL: mockUrl, apiKey: 'mock-key' }, models: { [MODEL]: { name: 'Mock', tool_call: true } } } },
    model: `mock/${MODEL}`,
    small_model: `mock/${MODEL}`,
    autoupdate: false,
    share: 'disabled',
    permission: { '*': 'allow' },
  };
  writeFileSync(join(dir, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
}

export interface OpencodeServer {
  url: string;
  /** what the server printed on stderr so far (--print-logs: its log, gate's plugin lines among them) */
  stderr(): string;
  /** POST /session, then the prompt with POST /session/:id/prompt_async; returns the session id */
  prompt(text: string): Promise<string>;
  /** resolves once `count` lines matching `pattern` are in the log, or rejects after timeoutMs */
  waitForLog(pattern: RegExp, count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** `opencode serve` in `cwd` (its own process group), once it says where it listens. */
export async function startOpencodeServer(options: { cwd: string; home: string; env: Record<string, string> }): Promise<OpencodeServer> {
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: options.home,
    ...xdgEnv(options.home),
    OPENCODE_DISABLE_AUTOUPDATE: 'true',
    OPENCODE_DISABLE_MODELS_FETCH: 'true',
    OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
    OPENCODE_DISABLE_SHARE: 'true',
    // Should a dependency install still start, it fails at once instead of reaching the network.
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_fetch_retries: '0',
    ...options.env,
  };
  const child = spawn(opencodeBinPath(), ['serve', '--port', '0', '--hostname', '127.0.0.1', '--print-logs'], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const killGroup = (signal: NodeJS.Signals): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const close = async (): Promise<void> => {
    killGroup('SIGTERM');
    const timer = setTimeout(() => killGroup('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  };

  const url = await until(() => /listening on (http:\/\/[\d.:]+)/.exec(stdout)?.[1], 60_000).catch(async (error: unknown) => {
    await close();
    throw new Error(`opencode serve did not start: ${String(error)}\nstdout:\n${stdout}\nstderr:\n${stderr.slice(-4000)}`);
  });
  const post = async (path: string, body: unknown): Promise<Response> => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return response;
  };
  return {
    url,
    stderr: () => stderr,
    async prompt(text) {
      const session = (await (await post('/session', {})).json()) as { id: string };
      await post(`/session/${session.id}/prompt_async`, { parts: [{ type: 'text', text }] });
      return session.id;
    },
    async waitForLog(pattern, count, timeoutMs) {
      const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
      await until(() => ((stderr.match(global)?.length ?? 0) >= count ? true : undefined), timeoutMs).catch(() => {
        throw new Error(`no ${count}× ${String(pattern)} in the OpenCode log within ${timeoutMs} ms:\n${stderr.slice(-6000)}`);
      });
    },
    close,
  };
}

function until<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      const value = probe();
      if (value !== undefined) resolve(value);
      else if (Date.now() - started > timeoutMs) reject(new Error(`timed out after ${timeoutMs} ms`));
      else setTimeout(tick, 100);
    };
    tick();
  });
}
