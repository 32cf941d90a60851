import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { claudeBinPath } from './claude-bin.js';

export interface RunClaudeOptions {
  cwd: string;
  prompt: string;
  mockUrl: string;
  /** a temp dir, used as CLAUDE_CONFIG_DIR and HOME, and its tmp/ as CLAUDE_CODE_TMPDIR */
  configDir: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  extraArgs?: readonly string[];
}

export interface ClaudeResult {
  type: 'result';
  subtype: string;
  is_error: boolean;
  result: string;
  num_turns: number;
  session_id: string;
  [key: string]: unknown;
}

export interface ClaudeRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  json: ClaudeResult | null;
  durationMs: number;
}

function isResult(value: unknown): value is ClaudeResult {
  return typeof value === 'object' && value !== null && 'type' in value && value.type === 'result';
}

function parseResult(stdout: string): ClaudeResult | null {
  try {
    const value: unknown = JSON.parse(stdout);
    return isResult(value) ? value : null;
  } catch {
    return null;
  }
}

// Nothing from the parent's environment but PATH: the tests may themselves run inside Claude Code,
// whose ANTHROPIC_*/CLAUDE* variables would leak into the CLI under test and into its hooks.
// CLAUDE_CODE_TMPDIR keeps its per-project scratch folders and sockets out of the shared /tmp.
function scrubbedEnv(options: RunClaudeOptions): Record<string, string> {
  const tmp = join(options.configDir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: options.configDir,
    CLAUDE_CONFIG_DIR: options.configDir,
    CLAUDE_CODE_TMPDIR: tmp,
    ANTHROPIC_BASE_URL: options.mockUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    ...options.env,
  };
}

export function runClaude(options: RunClaudeOptions): Promise<ClaudeRun> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const args = ['-p', options.prompt, '--output-format', 'json', '--allowedTools', 'Bash,Write,Edit,Read'];
  const started = performance.now();
  const child = spawn(claudeBinPath(), [...args, ...(options.extraArgs ?? [])], {
    cwd: options.cwd,
    env: scrubbedEnv(options),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so a timeout can kill everything it started
  });
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
      reject(new Error(`could not start claude: ${error.message}`));
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      const durationMs = Math.round(performance.now() - started);
      if (timedOut) {
        reject(new Error(
          `claude -p timed out after ${timeoutMs} ms and was killed (${signal ?? exitCode}).\n` +
            `stdout:\n${stdout.slice(-4000)}\nstderr:\n${stderr.slice(-4000)}`,
        ));
        return;
      }
      resolve({ exitCode, stdout, stderr, json: parseResult(stdout), durationMs });
    });
  });
}
