// Shapes the captured transcripts don't show: older formats and rarer records, written as each
// harness's code writes them.
import { describe, expect, it } from 'vitest';
import { parseClaude } from '../../src/history/parse-claude.js';
import { parseCodex } from '../../src/history/parse-codex.js';
import { parseGemini } from '../../src/history/parse-gemini.js';
import { parseQwen } from '../../src/history/parse-qwen.js';

const t = (second: number): string => `2025-06-02T09:00:${String(second).padStart(2, '0')}.000Z`;

describe('parseClaude', () => {
  it("keeps a subagent's edits in its parent's turn, without its prompt or answer", () => {
    const line = (second: number, type: string, content: unknown, extra: Record<string, unknown> = {}) => ({ type, timestamp: t(second), sessionId: 's', cwd: '/r', message: { content }, ...extra });
    const { events } = parseClaude([
      line(0, 'user', 'Refactor.'),
      line(1, 'user', 'Subagent task.', { isSidechain: true }),
      line(2, 'assistant', [{ type: 'tool_use', id: 'a', name: 'Edit', input: {} }], { isSidechain: true }),
      line(3, 'user', [{ type: 'tool_result', tool_use_id: 'a' }], { isSidechain: true }),
      line(4, 'assistant', [{ type: 'text', text: 'Subagent done.' }], { isSidechain: true }),
      line(5, 'assistant', [{ type: 'tool_use', id: 'b', name: 'Bash', input: { command: 'npm test' } }]),
      line(6, 'user', [{ type: 'tool_result', tool_use_id: 'b', is_error: true }]),
      line(7, 'assistant', [{ type: 'text', text: 'Done.' }]),
    ]);
    expect(events).toEqual([
      { kind: 'prompt', at: t(0) },
      { kind: 'edit', at: t(3) },
      { kind: 'command', at: t(6), check: true, ok: false },
      { kind: 'reply', at: t(7) },
    ]);
  });
});

describe('parseCodex', () => {
  it('reads the older `shell` tool, its JSON output with metadata.exit_code, and user_message events', () => {
    const line = (second: number, type: string, payload: Record<string, unknown>) => ({ timestamp: t(second), type, payload });
    const transcript = parseCodex([
      line(0, 'session_meta', { id: 'abc', cwd: '/r' }),
      line(1, 'event_msg', { type: 'user_message', message: 'Fix it.' }),
      line(2, 'response_item', { type: 'custom_tool_call', name: 'apply_patch', call_id: 'p', input: '*** Begin Patch' }),
      line(3, 'response_item', { type: 'custom_tool_call_output', call_id: 'p', output: '{"output":"Success.","metadata":{"exit_code":0}}' }),
      line(4, 'response_item', { type: 'function_call', name: 'shell', call_id: 'c', arguments: '{"command":["bash","-lc","cargo test"]}' }),
      line(5, 'response_item', { type: 'function_call_output', call_id: 'c', output: '{"output":"ok","metadata":{"exit_code":0}}' }),
      line(6, 'response_item', { type: 'message', role: 'assistant', content: [] }),
    ]);
    expect(transcript).toMatchObject({ session: 'abc', cwd: '/r', skipped: 0 });
    expect(transcript.events).toEqual([
      { kind: 'prompt', at: t(1) },
      { kind: 'edit', at: t(3) },
      { kind: 'command', at: t(5), check: true, ok: true },
      { kind: 'reply', at: t(6) },
    ]);
  });
});

describe('parseGemini', () => {
  it('reads an older session-*.json object, and a shell call that exited non-zero', () => {
    const call = { name: 'run_shell_command', args: { command: 'npx vitest run' }, status: 'success', timestamp: t(3), result: [{ functionResponse: { response: { output: 'Output: 1 failed\nExit Code: 1' } } }] };
    const transcript = parseGemini([
      {
        sessionId: 'g',
        projectHash: 'x',
        messages: [
          { id: '1', timestamp: t(0), type: 'user', content: [{ text: 'Fix it.' }] },
          { id: '2', timestamp: t(1), type: 'gemini', content: '', toolCalls: [{ name: 'replace', args: {}, status: 'success', timestamp: t(2) }, call] },
          { id: '3', timestamp: t(4), type: 'user', content: [{ text: 'gate: 1 of 2 checks failed (test); stop refused, block 1 of 3.\n…' }] },
          { id: '4', timestamp: t(5), type: 'gemini', content: 'Done.' },
        ],
      },
    ]);
    expect(transcript.session).toBe('g');
    expect(transcript.events).toEqual([
      { kind: 'prompt', at: t(0) },
      { kind: 'edit', at: t(2) },
      { kind: 'command', at: t(3), check: true, ok: false },
      { kind: 'reply', at: t(5) },
    ]);
  });
});

describe('parseQwen', () => {
  it('reads a failed edit as no edit, and the shell exit code from the result', () => {
    const line = (second: number, type: string, extra: Record<string, unknown>) => ({ sessionId: 'q', cwd: '/r', timestamp: t(second), type, ...extra });
    const transcript = parseQwen([
      line(0, 'user', { provenance: 'real_user', message: { parts: [{ text: 'Fix it.' }] } }),
      line(1, 'assistant', { message: { parts: [{ functionCall: { id: 'w', name: 'write_file', args: {} } }] } }),
      line(2, 'tool_result', { toolCallResult: { callId: 'w', status: 'error' }, message: { parts: [] } }),
      line(3, 'assistant', { message: { parts: [{ functionCall: { id: 's', name: 'run_shell_command', args: { command: 'pytest -q' } } }] } }),
      line(4, 'tool_result', { toolCallResult: { callId: 's', status: 'success', resultDisplay: { exitCode: 1 } }, message: { parts: [] } }),
      line(5, 'assistant', { message: { parts: [{ text: 'Done.' }] } }),
    ]);
    expect(transcript.events).toEqual([
      { kind: 'prompt', at: t(0) },
      { kind: 'command', at: t(4), check: true, ok: false },
      { kind: 'reply', at: t(5) },
    ]);
  });
});
