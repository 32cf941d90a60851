// Types of claude-cli.mjs (plain JavaScript, shared with scripts/demo.mjs).

export const CLAUDE_CODE_VERSION: string;
/** The repository root. */
export const PROJECT_ROOT: string;

/** The pinned native binary; throws (never skips) when it is not installed. */
export function claudeBinPath(): string;

export interface RunClaudeOptions {
  cwd: string;
  prompt: string;
  mockUrl: string;
  /** a temp dir, used as CLAUDE_CONFIG_DIR and HOME, and its tmp/ as CLAUDE_CODE_TMPDIR */
  configDir: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** `json` (default): one result object; `stream-json`: every event, with `--verbose` */
  outputFormat?: 'json' | 'stream-json';
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
  /** the `result` object (the last one, with stream-json), or null when stdout had none */
  json: ClaudeResult | null;
  /** every JSON value on stdout: one for `json`, one per line for `stream-json` (undefined where a line was not JSON) */
  events: unknown[];
  durationMs: number;
}

export function runClaude(options: RunClaudeOptions): Promise<ClaudeRun>;
