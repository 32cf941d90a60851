// The pinned Codex CLI: where scripts/install-codex.mjs put it, and how to run `codex exec`
// hermetically against the mock model.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliVersion } from '../../../scripts/cli-versions.mjs';

export const CODEX_VERSION = cliVersion('codex');

const PROJECT_ROOT = dirname(dirname(dirname(dirname(fileURLToPath(import.meta.url)))));

const TARGETS: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/** The native binary; throws (never skips) when it is missing. */
export function codexBinPath(): string {
  const platform = `${process.platform}-${process.arch}`;
  const target = TARGETS[platform] ?? 'unsupported';
  const path = join(PROJECT_ROOT, '.cache', 'codex', CODEX_VERSION, 'node_modules', `@openai/codex-${platform}`, 'vendor', target, 'bin', 'codex');
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(`Codex ${CODEX_VERSION} is not installed (no executable at ${path}): run node scripts/install-codex.mjs`);
  }
  return path;
}

/** A config.toml whose only model provider is the mock (Responses API over SSE). */
export function writeCodexConfig(codexHome: string, baseUrl: string): void {
  mkdirSync(codexHome, { recursive: true });
  const lines = [
    'model = "mock-model"',
    'model_provider = "mock"',
    '',
    '[model_providers.mock]',
    'name = "mock"',
    `base_url = "${baseUrl}"`,
    'wire_api = "responses"',
    'env_key = "CODEX_MOCK_API_KEY"',
    '',
  ];
  writeFileSync(join(codexHome, 'config.toml'), lines.join('\n'));
}

export interface RunCodexOptions {
  cwd: string;
  prompt: string;
  /** HOME for the CLI; CODEX_HOME is `<home>/.codex`, which must hold config.toml */
  home: string;
  /** scratch space (Codex spills long hook output to $TMPDIR/hook_outputs) */
  tmp: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** false: leave out --dangerously-bypass-hook-trust, so only hooks approved under /hooks run */
  bypassHookTrust?: boolean;
}

export interface HookRun {
  event: string;
  /** Completed (allowed, or JSON accepted), Blocked, Failed (exit ≠ 0/2, bad JSON, timeout) */
  status: string;
}

export interface CodexRun {
  exitCode: number | null;
  /** the last agent message (all `codex exec` prints on stdout) */
  stdout: string;
  stderr: string;
  /** every finished hook run, in order, as `codex exec` reports them on stderr */
  hooks: HookRun[];
  /** Codex's session id (the hook payload's `session_id`), from the banner on stderr */
  sessionId: string | undefined;
  durationMs: number;
}

/**
 * `codex exec PROMPT` as CI would run it: the project trusted, hooks run without the interactive
 * /hooks approval, no sandbox (the scripted agent edits files). Its own process group, killed whole
 * on timeout. Nothing from the parent's environment but PATH.
 */
export function runCodex(options: RunCodexOptions): Promise<CodexRun> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const args = [
    'exec',
    '--skip-git-repo-check',
    '--trust',
    ...(options.bypassHookTrust === false ? [] : ['--dangerously-bypass-hook-trust']),
    '--sandbox', 'danger-full-access',
    '--color', 'never',
    options.prompt,
  ];
  mkdirSync(options.tmp, { recursive: true });
  const env = {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: options.home,
    CODEX_HOME: join(options.home, '.codex'),
    TMPDIR: options.tmp,
    LANG: 'C.UTF-8',
    CODEX_MOCK_API_KEY: 'dummy',
    ...options.env,
  };
  const started = performance.now();
  const child = spawn(codexBinPath(), args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  return new Promise((resolve, reject) => {
    let timedOut = false;
    const killGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 3_000).unref();
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start codex: ${error.message}`));
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new Error(`codex exec timed out after ${timeoutMs} ms and was killed (${signal ?? exitCode}).\nstdout:\n${stdout.slice(-4000)}\nstderr:\n${stderr.slice(-4000)}`));
        return;
      }
      const hooks = [...stderr.matchAll(/^hook: (\w+) (\w+)$/gm)].map(([, event = '', status = '']) => ({ event, status }));
      const sessionId = /^session id: (\S+)$/m.exec(stderr)?.[1];
      resolve({ exitCode, stdout, stderr, hooks, sessionId, durationMs: Math.round(performance.now() - started) });
    });
  });
}
