import { isCheckCommand } from './check-command.js';
import { writesFiles } from './shell-edit.js';
import { isRecord, stringField, type Transcript, type TranscriptEvent } from './transcript-events.js';

/** Claude Code's file-editing tools. */
const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
const SHELL_TOOLS = new Set(['Bash']);

/**
 * A Claude Code session file (`<config>/projects/<cwd with / as ->/<session>.jsonl`): one JSON record a
 * line. `user` records are prompts (a string, or text blocks) or tool results; `isMeta` ones (a Stop
 * hook's feedback) are neither. `assistant` records carry text and `tool_use` blocks. An edit or a
 * command counts when its result arrives: a result flagged `is_error` is a failed edit or a non-zero exit.
 */
export function parseClaude(lines: unknown[]): Transcript {
  const transcript: Transcript = { harness: 'claude', session: undefined, cwd: undefined, events: [], skipped: 0 };
  const calls = new Map<string, { name: string; command: string | undefined }>();
  for (const line of lines) {
    if (!isRecord(line) || typeof line['type'] !== 'string') {
      transcript.skipped++;
      continue;
    }
    transcript.session ??= stringField(line, 'sessionId');
    transcript.cwd ??= stringField(line, 'cwd');
    const at = stringField(line, 'timestamp') ?? '';
    const message = isRecord(line['message']) ? line['message'] : undefined;
    // A subagent's records (older versions write them into the parent's file) belong to the parent's
    // turn: its edits and commands count, its prompt and answer do not start or end a turn.
    const main = line['isSidechain'] !== true;
    if (line['type'] === 'assistant' && message) readAssistant(message, at, calls, main ? transcript.events : []);
    else if (line['type'] === 'user' && message && line['isMeta'] !== true && line['isCompactSummary'] !== true) readUser(message, at, calls, transcript.events, main);
  }
  return transcript;
}

function readAssistant(message: Record<string, unknown>, at: string, calls: Map<string, { name: string; command: string | undefined }>, events: TranscriptEvent[]): void {
  const blocks = Array.isArray(message['content']) ? message['content'].filter(isRecord) : [];
  for (const block of blocks) {
    const id = stringField(block, 'id');
    const name = stringField(block, 'name');
    if (block['type'] === 'tool_use' && id !== undefined && name !== undefined) {
      calls.set(id, { name, command: isRecord(block['input']) ? stringField(block['input'], 'command') : undefined });
    }
  }
  // Claude Code writes one record per content block: a text block alone is the agent's answer.
  if (blocks.length > 0 && blocks.every((block) => block['type'] === 'text' || block['type'] === 'thinking') && blocks.some((block) => block['type'] === 'text')) {
    events.push({ kind: 'reply', at });
  }
}

function readUser(message: Record<string, unknown>, at: string, calls: Map<string, { name: string; command: string | undefined }>, events: TranscriptEvent[], main: boolean): void {
  const content = message['content'];
  const blocks = Array.isArray(content) ? content.filter(isRecord) : [];
  const results = blocks.filter((block) => block['type'] === 'tool_result');
  if (results.length === 0) {
    if (main && (typeof content === 'string' || blocks.some((block) => block['type'] === 'text'))) events.push({ kind: 'prompt', at });
    return;
  }
  for (const result of results) {
    const call = calls.get(stringField(result, 'tool_use_id') ?? '');
    if (!call) continue;
    const ok = result['is_error'] !== true;
    if (EDIT_TOOLS.has(call.name) && ok) events.push({ kind: 'edit', at });
    if (SHELL_TOOLS.has(call.name) && call.command !== undefined) {
      if (ok && writesFiles(call.command)) events.push({ kind: 'edit', at });
      events.push({ kind: 'command', at, check: isCheckCommand(call.command), ok });
    }
  }
}
