import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from './temp-repo.js';

export const GATE_BIN = join(PROJECT_ROOT, 'bin', 'gate.cjs');

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/** Runs the built bin as a harness would: payload on stdin, a scrubbed environment. */
export function runBin(args: string[], options: { cwd: string; env: Record<string, string>; input?: string | Buffer; timeoutMs?: number }): BinResult {
  const started = performance.now();
  const result = spawnSync(process.execPath, [GATE_BIN, ...args], {
    cwd: options.cwd,
    env: options.env,
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, durationMs: performance.now() - started };
}

export function hookPayload(event: 'Stop' | 'UserPromptSubmit' | 'SubagentStop', sessionId: string, cwd: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: '/nonexistent/transcript.jsonl',
    cwd,
    hook_event_name: event,
    stop_hook_active: false,
    ...extra,
  });
}

/** A stop as Claude Code delivers it: CLAUDE_PROJECT_DIR is the launch directory. */
export function stop(repo: { dir: string; env: Record<string, string> }, sessionId = 'session-1', extra: Record<string, unknown> = {}): BinResult {
  return runBin(['run'], { cwd: repo.dir, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, input: hookPayload('Stop', sessionId, repo.dir, extra) });
}

export function promptStart(repo: { dir: string; env: Record<string, string> }, sessionId = 'session-1'): BinResult {
  return runBin(['run'], { cwd: repo.dir, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, input: hookPayload('UserPromptSubmit', sessionId, repo.dir) });
}
