import { isCheckCommand } from './check-command.js';
import { writesFiles } from './shell-edit.js';
import { isRecord, stringField, type Transcript, type TranscriptEvent } from './transcript-events.js';

const SHELL_TOOLS = new Set(['exec_command', 'shell', 'local_shell', 'container.exec', 'shell_command']);
const PATCH_TOOLS = new Set(['apply_patch']);

type Call = { shell: boolean; command: string };

/**
 * A Codex rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type, payload}`
 * lines. `session_meta` names the session and its cwd; `event_msg` `task_started` / `task_complete`
 * open and close a turn (a Stop hook's refusal continues the same one), `item_completed` of a
 * `FileChange` is an applied patch; `response_item`s carry the model's tool calls and their outputs
 * (the exit code is in the output text), and its messages.
 */
export function parseCodex(lines: unknown[]): Transcript {
  const transcript: Transcript = { harness: 'codex', session: undefined, cwd: undefined, events: [], skipped: 0 };
  const calls = new Map<string, Call>();
  for (const line of lines) {
    const payload = isRecord(line) ? line['payload'] : undefined;
    if (!isRecord(line) || !isRecord(payload) || typeof line['type'] !== 'string') {
      transcript.skipped++;
      continue;
    }
    const at = stringField(line, 'timestamp') ?? '';
    if (line['type'] === 'session_meta') {
      transcript.session ??= stringField(payload, 'id') ?? stringField(payload, 'session_id');
      transcript.cwd ??= stringField(payload, 'cwd');
    } else if (line['type'] === 'event_msg') {
      readEvent(payload, at, transcript.events);
    } else if (line['type'] === 'response_item') {
      readItem(payload, at, calls, transcript.events);
    }
  }
  return transcript;
}

function readEvent(payload: Record<string, unknown>, at: string, events: TranscriptEvent[]): void {
  if (payload['type'] === 'task_started' || payload['type'] === 'user_message') events.push({ kind: 'prompt', at });
  else if (payload['type'] === 'task_complete') events.push({ kind: 'reply', at });
  else if (payload['type'] === 'patch_apply_end' && payload['success'] === true) events.push({ kind: 'edit', at });
  else if (payload['type'] === 'item_completed' && isRecord(payload['item']) && payload['item']['type'] === 'FileChange') events.push({ kind: 'edit', at });
}

function readItem(item: Record<string, unknown>, at: string, calls: Map<string, Call>, events: TranscriptEvent[]): void {
  const type = item['type'];
  const id = stringField(item, 'call_id') ?? '';
  if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
    const name = stringField(item, 'name') ?? (type === 'local_shell_call' ? 'local_shell' : '');
    if (PATCH_TOOLS.has(name)) calls.set(id, { shell: false, command: 'apply_patch' });
    else if (SHELL_TOOLS.has(name)) calls.set(id, { shell: true, command: commandOf(item) });
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const call = calls.get(id);
    if (!call) return;
    const ok = exitedZero(item['output']);
    // A patch that failed verification states no exit code at all: only a stated 0 is an edit.
    if (ok === true && (!call.shell || writesFiles(call.command))) events.push({ kind: 'edit', at });
    if (call.shell) events.push({ kind: 'command', at, check: isCheckCommand(call.command), ok });
  } else if (type === 'message' && item['role'] === 'assistant') {
    events.push({ kind: 'reply', at });
  }
}

/** `{"cmd": "…"}` (exec_command), `{"command": ["bash", "-lc", "…"]}` (shell), or `action.command` (local_shell). */
function commandOf(item: Record<string, unknown>): string {
  let args: unknown = item['arguments'] ?? item['action'] ?? item['input'];
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      return args as string;
    }
  }
  if (!isRecord(args)) return '';
  const command = args['cmd'] ?? args['command'];
  if (typeof command === 'string') return command;
  return Array.isArray(command) ? String(command.at(-1) ?? '') : '';
}

/** The exit code as the output text states it: `Process exited with code N`, `Exit code: N` (a patch), or JSON `metadata.exit_code` (older versions). */
function exitedZero(output: unknown): boolean | undefined {
  const text = typeof output === 'string' ? output : isRecord(output) ? (stringField(output, 'content') ?? '') : '';
  const stated = /(?:Process exited with code|^Exit code:) (-?\d+)/m.exec(text);
  if (stated) return stated[1] === '0';
  if (/^\s*\{/.test(text)) {
    try {
      const value: unknown = JSON.parse(text);
      const metadata = isRecord(value) ? value['metadata'] : undefined;
      if (isRecord(metadata) && typeof metadata['exit_code'] === 'number') return metadata['exit_code'] === 0;
    } catch {
      // Not the JSON form.
    }
  }
  return undefined;
}
