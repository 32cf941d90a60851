import { execFile } from 'node:child_process';
import type { ResolvedGate } from '../config/load-config.js';

export type ToolOutput = { ok: true; stdout: string } | { ok: false; problem: string };

const TIMEOUT_MS = 60_000;

/**
 * Runs a build tool's read-only query (`go list`, `cargo metadata`) in the gate's directory. Never
 * throws: a planner that can't ask the tool plans the full run and says why.
 */
export function runTool(gate: ResolvedGate, program: string, args: string[], extraEnv: Record<string, string> = {}): Promise<ToolOutput> {
  // The gate's command gets the hook's environment plus the gate's own `env`; so does its query.
  const env = { ...process.env, ...gate.env, ...extraEnv };
  return new Promise((resolve) => {
    execFile(program, args, { cwd: gate.cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: TIMEOUT_MS, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (!error) return resolve({ ok: true, stdout });
      const command = `${program} ${args[0] ?? ''}`.trim();
      if ('code' in error && error.code === 'ENOENT') return resolve({ ok: false, problem: `${program} was not found on PATH` });
      if (error.killed) return resolve({ ok: false, problem: `${command} took over ${TIMEOUT_MS / 1000} s` });
      const line = stderr.split('\n').find((text) => text.trim() !== '') ?? error.message;
      resolve({ ok: false, problem: `${command} failed: ${line.trim().slice(0, 200)}` });
    });
  });
}
