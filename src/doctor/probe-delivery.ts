import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Adapter } from '../harness/adapters.js';
import { nodeOnPath } from './explain-not-run.js';
import { judgeDelivery, PROBE_LINES, type Finding } from './judge-delivery.js';

/**
 * Runs the installed hook command exactly as the harness would (`/bin/sh -c`, from the project
 * directory, with the harness's project variable) on a synthetic failing stop, and judges its answer.
 * GATE_PROJECT_DIR points the hook at a throwaway repository whose one gate fails with words that
 * harnesses have mistaken for a missing hook; the real project's state and config are not touched.
 */
export function probeDelivery(adapter: Adapter, command: string, projectDir: string, env: NodeJS.ProcessEnv): Finding {
  let probe: string;
  try {
    probe = realpathSync(mkdtempSync(join(tmpdir(), 'gate-doctor-')));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { level: 'problem', message: `no temp folder (TMPDIR ${tmpdir()}): ${why}. The delivery probe was skipped, and a stop's baseline check needs one too (without it every failure counts as new); set TMPDIR to a writable folder where the agent runs` };
  }
  try {
    const git = spawnSync('git', ['init', '-q', probe], { stdio: 'ignore' });
    if (git.status !== 0) return { level: 'info', message: 'delivery probe skipped: git init failed in a temp folder' };
    const failing = `process.stderr.write(${JSON.stringify(`${PROBE_LINES.join('\n')}\n`)}); process.exitCode = 1;`;
    writeFileSync(join(probe, 'gate.config.json'), `${JSON.stringify({ gates: [{ name: 'delivery-probe', run: [process.execPath, '-e', failing], on: ['**'] }] })}\n`);
    writeFileSync(join(probe, 'changed.txt'), 'a change for the probe gate to check\n');
    const { GATE: _off, GATE_SKIP: _skip, ...inherited } = env;
    const projectVars = Object.fromEntries(adapter.projectEnv.map((name) => [name, projectDir]));
    const result = spawnSync('/bin/sh', ['-c', command], {
      cwd: projectDir,
      env: { ...inherited, ...projectVars, GATE_PROJECT_DIR: probe },
      input: JSON.stringify(probePayload(adapter, probe)),
      encoding: 'utf8',
      timeout: 60_000,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const error = result.error ? (result.error.message.includes('ETIMEDOUT') ? 'no answer within 60 s' : result.error.message) : undefined;
    const node = { onPath: nodeOnPath(inherited['PATH']), execPath: process.execPath };
    return judgeDelivery(adapter, command, { status: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '', node, ...(error !== undefined && { error }) });
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** The harness's own stop payload, as far as gate reads it. */
function probePayload(adapter: Adapter, probe: string): Record<string, unknown> {
  const event = Object.keys(adapter.events).find((name) => adapter.events[name] === 'stop') ?? 'Stop';
  const session = adapter.sessionKeys[0] ?? 'session_id';
  return { [session]: 'gate-doctor-probe', hook_event_name: event, cwd: probe, status: 'completed', stop_hook_active: false, workspace_roots: [probe] };
}
