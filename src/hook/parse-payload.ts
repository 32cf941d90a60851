import type { Adapter, TurnEvent } from '../harness/adapters.js';
import { editedFile, type EditedFile } from '../nudge/edited-file.js';

/** What gate needs from a harness payload, normalised; every field may be absent or malformed. */
export interface HookPayload {
  /** The payload was a JSON object naming an event; anything else is never acted on. */
  valid: boolean;
  event: TurnEvent;
  sessionId: string | undefined;
  /** Directories the payload names for the project, in order of trust. */
  dirs: string[];
  runningBackgroundTasks: number;
  /**
   * Claude-format hooks run by Copilot CLI carry `stop_reason`; Copilot ignores exit 2, so such a
   * stop must be blocked with a JSON decision instead.
   */
  viaCopilot: boolean;
  /**
   * A Claude-format hook run by Cursor (its payloads carry `cursor_version`, or `generation_id`
   * with `conversation_id`): Cursor also runs its own `.cursor/hooks.json`, which may gate the same stop.
   */
  viaCursor: boolean;
  /** Cursor: the agent loop ended other than "completed" (aborted, error): never gate that. */
  notCompleted: boolean;
  /**
   * When the harness fired the event (`timestamp`, in ms), if it says: Copilot CLI gives both copies
   * of one stop, its own hook's and a Claude-format entry's, the same instant.
   */
  firedAt: number | undefined;
  /**
   * The text of the agent's last message: `last_assistant_message` (Claude Code, Codex, Qwen Code,
   * Copilot running a Claude-format entry) or `prompt_response` (Gemini CLI, the turn's text).
   */
  lastMessage: string | undefined;
  /** The harness says the agent may only plan: `permission_mode` "plan" (Claude Code, Codex, Qwen Code) or "spec" (Factory Droid). */
  planMode: boolean;
  /** A post-edit event's file and what the edit replaced. */
  edit: EditedFile | undefined;
}

export function parsePayload(text: string, adapter: Adapter, eventOverride: string | undefined): HookPayload {
  const data = parseObject(text);
  const named = eventOverride ?? stringField(data, 'hook_event_name') ?? stringField(data, 'hookEventName');
  const known = named !== undefined && Object.hasOwn(adapter.events, named);
  const event = known ? (adapter.events[named] ?? 'other') : 'other';
  const echoed = event === 'turn-start' && adapter.reportReturnsAsPrompt === true && continuesTurn(data);
  const sessionId = adapter.sessionKeys.map((key) => stringField(data, key)).find((id) => id !== undefined);
  const roots = Array.isArray(data['workspace_roots']) ? data['workspace_roots'].filter((root): root is string => typeof root === 'string') : [];
  const cwd = stringField(data, 'cwd');
  const status = stringField(data, 'status');
  return {
    valid: named !== undefined,
    event: echoed ? 'other' : event,
    sessionId,
    dirs: [...roots.slice(0, 1), ...(cwd ? [cwd] : [])],
    runningBackgroundTasks: countRunning(data['background_tasks']),
    viaCopilot: adapter.name === 'claude' && 'stop_reason' in data,
    viaCursor: adapter.name === 'claude' && (stringField(data, 'cursor_version') !== undefined || (stringField(data, 'generation_id') !== undefined && stringField(data, 'conversation_id') !== undefined)),
    notCompleted: status !== undefined && status !== 'completed',
    firedAt: instantOf(data['timestamp']),
    lastMessage: stringField(data, 'last_assistant_message') ?? stringField(data, 'prompt_response'),
    planMode: PLAN_MODES.has(stringField(data, 'permission_mode') ?? ''),
    edit: event === 'post-edit' ? editedFile(data) : undefined,
  };
}

const PLAN_MODES = new Set(['plan', 'spec']);

/** The first line of every report gate blocks with (src/report/render-report.ts). */
const REPORT_HEADER = /^gate: \d+ of \d+ checks failed \(.*\); stop refused, block \d+ of \d+\./;

function isGateReport(prompt: string | undefined): boolean {
  return prompt !== undefined && REPORT_HEADER.test(prompt);
}

/**
 * A prompt event inside a turn rather than at its start. Qwen Code fires UserPromptSubmit before
 * every model call: with an empty `prompt` after a tool result, with the report after a block; only
 * a user's own submission carries `submitted_prompt` (measured on 0.24.4).
 */
function continuesTurn(data: Record<string, unknown>): boolean {
  if (typeof data['submitted_prompt'] === 'string') return false;
  // A session restarted by compaction is mid-turn (Factory's SessionStart).
  if (data['source'] === 'compact') return true;
  return data['prompt'] === '' || isGateReport(stringField(data, 'prompt'));
}

/** Copilot's own payloads carry epoch milliseconds, its Claude-format payloads an ISO string. */
function instantOf(value: unknown): number | undefined {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

function stringField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

// Claude Code lists background subagents here; the main Stop fires while they still run and
// again when they finish. Entries without a status are taken as running.
function countRunning(tasks: unknown): number {
  if (!Array.isArray(tasks)) return 0;
  return tasks.filter((task) => {
    if (!isRecord(task)) return true;
    const status = task['status'];
    return typeof status !== 'string' || /^(running|pending|in_progress|active|started)$/i.test(status);
  }).length;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
