import type { Adapter } from '../harness/adapters.js';
import { explainNodeMissing } from './explain-not-run.js';

/** A warning does not fail doctor: the gate runs, but maybe not what the developer runs. */
export type Level = 'ok' | 'problem' | 'warning' | 'info';
export interface Finding {
  level: Level;
  message: string;
}

/** What the probe gate prints: the words that harnesses have taken for "the hook script is missing". */
export const PROBE_LINES = ["Error: ENOENT: no such file or directory, open 'gate-doctor/app.json'", "sh: 0: Can't open gate-doctor/setup.sh"] as const;

export interface ProbeRun {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Set when the command could not be started or timed out. */
  error?: string;
  /** Whether node is on the PATH the command ran with, and the one doctor runs under (for an exit 127's fix). */
  node?: { onPath: boolean; execPath: string };
}

/**
 * Whether a hook's answer to a failing stop is one the harness treats as a block that carries the
 * whole report to the agent (docs/stop-contract.md and each docs/harness-*.md, "What can drop a block").
 */
export function judgeDelivery(adapter: Adapter, command: string, run: ProbeRun): Finding {
  const fail = (why: string): Finding => ({ level: 'problem', message: `a failing stop does not reach the agent: ${command} — ${why}` });
  if (run.error !== undefined) return fail(run.error);
  if (run.status === 127) {
    const node = explainNodeMissing(run.stderr, run.node ?? { onPath: true, execPath: 'node' });
    return fail(node ?? `not found (exit 127): ${adapter.name} treats that as "allow", so every stop would pass unchecked. Is stopgate installed (npm install)?`);
  }
  if (run.status === null) return fail(`killed by ${run.signal ?? 'a signal'}: ${adapter.name} lets the stop through`);
  const reaches = (text: string): boolean => PROBE_LINES.every((line) => text.includes(line));
  switch (adapter.protocol) {
    case 'exit2': {
      if (run.status !== 2) return fail(`exit ${run.status}, not 2: the stop would be allowed${tail(run.stderr)}`);
      if (!reaches(run.stderr)) return fail(`exit 2, but the report on stderr lacks the failure${tail(run.stderr)}`);
      if (adapter.blockStdout === 'system-message' && run.stdout.trim() === '') {
        return fail('exit 2 with empty stdout and a report that says "no such file": Claude Code takes that for a missing hook script and drops the block. Update stopgate');
      }
      return ok(adapter, 'exit 2, the report on stderr');
    }
    case 'decision':
    case 'plugin':
    case 'followup': {
      const key = adapter.protocol === 'followup' ? 'followup_message' : 'reason';
      const answer = parseOne(run.stdout);
      if (answer === undefined) return fail(`stdout is not exactly one JSON object, so ${adapter.name} fails open${tail(run.stdout)}`);
      if (adapter.protocol !== 'followup' && answer['decision'] !== 'block') return fail(`its JSON says no "decision": "block"${tail(run.stdout)}`);
      const text = answer[key];
      if (typeof text !== 'string' || !reaches(text)) return fail(`its JSON "${key}" lacks the failure`);
      return ok(adapter, `one JSON object on stdout with the report as "${key}"`);
    }
    case 'stop-output': {
      const answer = parseOne(run.stdout);
      if (answer === undefined) return fail(`stdout is not exactly one JSON object, so ${adapter.name} fails open${tail(run.stdout)}`);
      const specific = answer['hookSpecificOutput'];
      if (!isRecord(specific) || specific['hookEventName'] !== 'Stop' || specific['decision'] !== 'block') {
        return fail(`its JSON has no "hookSpecificOutput" with "hookEventName": "Stop" and "decision": "block"${tail(run.stdout)}`);
      }
      const reason = specific['reason'];
      if (typeof reason !== 'string' || !reaches(reason)) return fail('its JSON "hookSpecificOutput.reason" lacks the failure');
      return ok(adapter, 'one JSON object on stdout with the report as "hookSpecificOutput.reason"');
    }
  }
}

function ok(adapter: Adapter, how: string): Finding {
  return { level: 'ok', message: `delivery probe: a failing stop whose report says "no such file" and "can't open" is refused the way ${adapter.name} needs (${how})` };
}

function parseOne(stdout: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(stdout);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tail(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' ? '' : `: ${trimmed.length > 300 ? `…${trimmed.slice(-300)}` : trimmed}`;
}
