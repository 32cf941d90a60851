import { isCheckCommand } from './check-command.js';
import { isGateReport } from './hook-feedback.js';
import { writesFiles } from './shell-edit.js';
import { isRecord, stringField, type Transcript, type TranscriptEvent } from './transcript-events.js';

const EDIT_TOOLS = new Set(['write_file', 'edit', 'replace', 'notebook_edit']);
const SHELL_TOOLS = new Set(['run_shell_command']);
const KNOWN = new Set(['user', 'assistant', 'tool_result', 'system']);

type Call = { name: string; command: string | undefined };

/**
 * A Qwen Code chat (`~/.qwen/projects/<cwd, non-alphanumerics as ->/chats/<session>.jsonl`): one
 * record a line with `sessionId`, `cwd`, `timestamp` and `type`. `user` records of provenance
 * `real_user` are prompts (a Stop hook's refusal is not written to the file); `assistant` records
 * carry Gemini-style `functionCall` and text parts; a `tool_result` names the call and carries
 * `toolCallResult.status` and, for the shell, the exit code.
 */
export function parseQwen(lines: unknown[]): Transcript {
  const transcript: Transcript = { harness: 'qwen', session: undefined, cwd: undefined, events: [], skipped: 0 };
  const calls = new Map<string, Call>();
  for (const line of lines) {
    if (!isRecord(line) || !KNOWN.has(String(line['type']))) {
      transcript.skipped++;
      continue;
    }
    transcript.session ??= stringField(line, 'sessionId');
    transcript.cwd ??= stringField(line, 'cwd');
    const at = stringField(line, 'timestamp') ?? '';
    const parts = isRecord(line['message']) && Array.isArray(line['message']['parts']) ? line['message']['parts'].filter(isRecord) : [];
    if (line['type'] === 'user') readPrompt(line, parts, at, transcript.events);
    else if (line['type'] === 'assistant') readAssistant(parts, at, calls, transcript.events);
    else if (line['type'] === 'tool_result') readResult(line, parts, at, calls, transcript.events);
  }
  return transcript;
}

function readPrompt(line: Record<string, unknown>, parts: Record<string, unknown>[], at: string, events: TranscriptEvent[]): void {
  const provenance = stringField(line, 'provenance');
  const text = parts.map((part) => stringField(part, 'text') ?? '').join('');
  if ((provenance === undefined || provenance === 'real_user') && text !== '' && !isGateReport(text)) events.push({ kind: 'prompt', at });
}

function readAssistant(parts: Record<string, unknown>[], at: string, calls: Map<string, Call>, events: TranscriptEvent[]): void {
  let called = false;
  for (const part of parts) {
    const call = part['functionCall'];
    if (!isRecord(call)) continue;
    called = true;
    const args = isRecord(call['args']) ? call['args'] : {};
    calls.set(stringField(call, 'id') ?? '', { name: stringField(call, 'name') ?? '', command: stringField(args, 'command') });
  }
  if (!called && parts.some((part) => typeof part['text'] === 'string' && part['thought'] !== true)) events.push({ kind: 'reply', at });
}

function readResult(line: Record<string, unknown>, parts: Record<string, unknown>[], at: string, calls: Map<string, Call>, events: TranscriptEvent[]): void {
  const result = isRecord(line['toolCallResult']) ? line['toolCallResult'] : {};
  const response = parts.map((part) => part['functionResponse']).find(isRecord);
  const call = calls.get(stringField(result, 'callId') ?? (response ? (stringField(response, 'id') ?? '') : ''));
  if (!call) return;
  const failed = result['status'] !== undefined ? result['status'] !== 'success' : isRecord(response?.['response']) && 'error' in response['response'];
  if (EDIT_TOOLS.has(call.name) && !failed) events.push({ kind: 'edit', at });
  if (!SHELL_TOOLS.has(call.name) || call.command === undefined) return;
  const display = isRecord(result['resultDisplay']) ? result['resultDisplay'] : {};
  const stated = /Exit Code: (-?\d+)/.exec(JSON.stringify(response?.['response'] ?? ''))?.[1];
  const exit = typeof display['exitCode'] === 'number' ? String(display['exitCode']) : stated;
  const ok = !failed && (exit === undefined || exit === '0');
  if (ok && writesFiles(call.command)) events.push({ kind: 'edit', at });
  events.push({ kind: 'command', at, check: isCheckCommand(call.command), ok });
}
