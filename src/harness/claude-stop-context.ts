/**
 * Whether a Claude Code Stop or SubagentStop hook can refuse the stop with
 * `hookSpecificOutput.additionalContext` (exit 0): from 2.1.163 that continues the turn with the
 * report, and the human is not shown "stop hook problem", which exit 2 always shows on a first block.
 * Before 2.1.163 the same answer is rejected and the stop goes through, so anything unproven gets
 * exit 2 (docs/stop-contract.md, measured with scripts/measure-stop-forms.mjs).
 */
const SINCE = [2, 1, 163] as const;

// Claude Code sets AI_AGENT to its own version for every hook it runs, over any inherited value
// (measured on 2.1.162, 2.1.163, 2.1.332); a process its Bash tool starts gets `…_agent` instead.
const HOOK_AGENT = /^claude-code_(\d+)-(\d+)-(\d+)_harness$/;

/**
 * Claude Code counts each line break twice towards the 10,000 characters of additionalContext it
 * passes whole; past that the model reads a file path and a 2 KB preview. Kept below, with room.
 */
export const STOP_CONTEXT_MAX = 9_000;

export type StopEventName = 'Stop' | 'SubagentStop';

/** The event name to answer with when this hook run can block by additionalContext; undefined: block with exit 2. */
export function stopContextEvent(env: NodeJS.ProcessEnv, event: string): StopEventName | undefined {
  if (event !== 'stop' && event !== 'subagent-stop') return undefined;
  const version = HOOK_AGENT.exec(env['AI_AGENT'] ?? '');
  if (!version) return undefined;
  if (!atLeast(version.slice(1, 4).map(Number), SINCE)) return undefined;
  return event === 'stop' ? 'Stop' : 'SubagentStop';
}

function atLeast(parts: number[], since: readonly number[]): boolean {
  for (const [index, least] of since.entries()) {
    const part = parts[index] ?? 0;
    if (part !== least) return part > least;
  }
  return true;
}

/** Whether the report reaches the model whole as additionalContext. */
export function fitsStopContext(report: string): boolean {
  return report.length + (report.match(/\n/g)?.length ?? 0) <= STOP_CONTEXT_MAX;
}
