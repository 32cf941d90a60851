// The pinned Claude Code CLI: where it is installed, and how to run it hermetically against the mock.
// Plain JavaScript so that scripts/demo.mjs can use it too; its types are in claude-cli.d.mts.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliVersion } from '../../scripts/cli-versions.mjs';

export const CLAUDE_CODE_VERSION = cliVersion('claude');

/** The repository root (this file is tests/claude/claude-cli.mjs). */
export const PROJECT_ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

function platformKey() {
  const { platform, arch } = process;
  if (platform !== 'linux') return `${platform}-${arch}`;
  const report = /** @type {{ header?: object }} */ (process.report.getReport());
  const glibc = typeof report.header === 'object' && 'glibcVersionRuntime' in report.header;
  return `linux-${arch}${glibc ? '' : '-musl'}`;
}

/** The native binary installed by scripts/install-claude.mjs; throws (never skips) when it is missing. */
export function claudeBinPath() {
  const binName = process.platform === 'win32' ? 'claude.exe' : 'claude';
  const path = join(
    PROJECT_ROOT, '.cache', 'claude-code', CLAUDE_CODE_VERSION,
    'node_modules', `@anthropic-ai/claude-code-${platformKey()}`, binName,
  );
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(
      `Claude Code ${CLAUDE_CODE_VERSION} is not installed (no executable at ${path}): ` +
        'run node scripts/install-claude.mjs',
    );
  }
  return path;
}

/** @param {unknown} value @returns {value is import('./claude-cli.d.mts').ClaudeResult} */
function isResult(value) {
  return typeof value === 'object' && value !== null && 'type' in value && value.type === 'result';
}

/** @param {string} text @returns {unknown} */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// Nothing from the parent's environment but PATH: the tests may themselves run inside Claude Code,
// whose ANTHROPIC_*/CLAUDE* variables would leak into the CLI under test and into its hooks.
// CLAUDE_CODE_TMPDIR keeps its per-project scratch folders and sockets out of the shared /tmp.
/** @param {import('./claude-cli.d.mts').RunClaudeOptions} options @returns {Record<string, string>} */
function scrubbedEnv(options) {
  const tmp = join(options.configDir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: options.configDir,
    LANG: 'C.UTF-8',
    CLAUDE_CONFIG_DIR: options.configDir,
    CLAUDE_CODE_TMPDIR: tmp,
    ANTHROPIC_BASE_URL: options.mockUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    ...options.env,
  };
}

/**
 * `claude -p PROMPT --output-format json` (or `stream-json --verbose`) in options.cwd, in its own
 * process group, killed whole on timeout.
 * @param {import('./claude-cli.d.mts').RunClaudeOptions} options
 * @returns {Promise<import('./claude-cli.d.mts').ClaudeRun>}
 */
export function runClaude(options) {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const format = options.outputFormat ?? 'json';
  const args = [
    '-p', options.prompt,
    '--output-format', format, ...(format === 'stream-json' ? ['--verbose'] : []),
    '--allowedTools', 'Bash,Write,Edit,Read',
    ...(options.extraArgs ?? []),
  ];
  const started = performance.now();
  const child = spawn(claudeBinPath(), args, {
    cwd: options.cwd,
    env: scrubbedEnv(options),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so a timeout can kill everything it started
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));

  return new Promise((resolve, reject) => {
    let timedOut = false;
    /** @param {NodeJS.Signals} signal */
    const killGroup = (signal) => {
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
      const events = format === 'stream-json'
        ? stdout.split('\n').filter((line) => line.trim() !== '').map(parseJson)
        : [parseJson(stdout)];
      const json = events.findLast(isResult) ?? null;
      resolve({ exitCode, stdout, stderr, json, events, durationMs });
    });
  });
}
