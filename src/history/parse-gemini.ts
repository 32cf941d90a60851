import { isCheckCommand } from './check-command.js';
import { isGateReport } from './hook-feedback.js';
import { writesFiles } from './shell-edit.js';
import { isRecord, stringField, type Harness, type Transcript, type TranscriptEvent } from './transcript-events.js';

/** Gemini CLI's file tools (Qwen Code, its fork, calls `replace` `edit`). */
const EDIT_TOOLS = new Set(['write_file', 'replace', 'edit', 'multi_edit', 'smart_edit', 'notebook_edit']);
const SHELL_TOOLS = new Set(['run_shell_command']);

/**
 * A Gemini CLI chat (`~/.gemini/tmp/<project>/chats/session-*.jsonl`): a header line (`sessionId`,
 * `projectHash`), message records (`type` user or gemini; a message written again with the same id
 * replaces the earlier copy, as when its tool calls complete) and `$set` updates, of which
 * `$set.messages` replaces the list. Older versions write one `session-*.json` object with a
 * `messages` array: the same records, read the same way. Tool calls carry their own `status` and
 * result; a shell result states `Exit Code: N` only when N is not 0. No cwd: the caller knows it.
 */
export function parseGemini(lines: unknown[], harness: Harness = 'gemini'): Transcript {
  const transcript: Transcript = { harness, session: undefined, cwd: undefined, events: [], skipped: 0 };
  let messages = new Map<string, Record<string, unknown>>();
  const add = (message: unknown): void => {
    if (isRecord(message) && typeof message['type'] === 'string') messages.set(stringField(message, 'id') ?? `#${messages.size}`, message);
  };
  for (const line of lines) {
    if (!isRecord(line)) {
      transcript.skipped++;
      continue;
    }
    transcript.session ??= stringField(line, 'sessionId');
    const set = line['$set'];
    const list = isRecord(set) ? set['messages'] : line['messages'];
    if (Array.isArray(list)) {
      messages = new Map();
      list.forEach(add);
    } else if (typeof line['type'] === 'string' && line['id'] !== undefined) {
      add(line);
    } else if (!isRecord(set) && line['sessionId'] === undefined) {
      transcript.skipped++;
    }
  }
  for (const message of messages.values()) readMessage(message, transcript.events);
  return transcript;
}

function readMessage(message: Record<string, unknown>, events: TranscriptEvent[]): void {
  const at = stringField(message, 'timestamp') ?? '';
  if (message['type'] === 'user') {
    const text = textOf(message['content']);
    if (text !== '' && !text.startsWith('<session_context>') && !isGateReport(text)) events.push({ kind: 'prompt', at });
    return;
  }
  if (message['type'] !== 'gemini') return;
  const calls = Array.isArray(message['toolCalls']) ? message['toolCalls'].filter(isRecord) : [];
  if (textOf(message['content']) !== '' && calls.length === 0) events.push({ kind: 'reply', at });
  for (const call of calls) readCall(call, stringField(call, 'timestamp') ?? at, events);
}

function readCall(call: Record<string, unknown>, at: string, events: TranscriptEvent[]): void {
  const name = stringField(call, 'name') ?? '';
  const ok = call['status'] === 'success';
  if (EDIT_TOOLS.has(name) && ok) events.push({ kind: 'edit', at });
  if (!SHELL_TOOLS.has(name)) return;
  const command = isRecord(call['args']) ? (stringField(call['args'], 'command') ?? '') : '';
  const exit = /Exit Code: (-?\d+)/.exec(JSON.stringify(call['result'] ?? ''))?.[1];
  const exitedZero = ok && (exit === undefined || exit === '0');
  if (exitedZero && writesFiles(command)) events.push({ kind: 'edit', at });
  events.push({ kind: 'command', at, check: isCheckCommand(command), ok: exitedZero });
}

/** A string, or the text parts of a parts array, joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) ? (stringField(part, 'text') ?? '') : '')).join('');
}
