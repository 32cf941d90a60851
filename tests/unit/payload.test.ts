import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/harness/adapters.js';
import { parsePayload as parseWith } from '../../src/hook/parse-payload.js';

const parsePayload = (text: string) => parseWith(text, ADAPTERS.claude, undefined);
import { sessionFileName } from '../../src/state/session-file-name.js';

describe('parsePayload', () => {
  it('reads a Claude Code Stop payload', () => {
    const payload = parsePayload(
      JSON.stringify({ session_id: 'abc-123', cwd: '/repo', hook_event_name: 'Stop', stop_hook_active: true, background_tasks: [], session_crons: [] }),
    );
    expect(payload).toMatchObject({ valid: true, event: 'stop', sessionId: 'abc-123', dirs: ['/repo'], runningBackgroundTasks: 0, viaCopilot: false });
  });

  it.each(['', 'not json', '[]', 'null', '42', '{"hook_event_name": 7}', '{"session_id": "x"}'])('marks %j invalid without throwing', (text) => {
    expect(parsePayload(text).valid).toBe(false);
  });

  it('tolerates fields of the wrong type', () => {
    const payload = parsePayload(JSON.stringify({ hook_event_name: 'Stop', session_id: 12, cwd: ['x'], stop_hook_active: 'yes', background_tasks: 'many' }));
    expect(payload).toMatchObject({ valid: true, sessionId: undefined, dirs: [], runningBackgroundTasks: 0 });
  });

  it('counts running background tasks and ignores finished ones', () => {
    const tasks = [{ id: 'a', status: 'running' }, { id: 'b', status: 'completed' }, { id: 'c' }];
    expect(parsePayload(JSON.stringify({ hook_event_name: 'Stop', background_tasks: tasks })).runningBackgroundTasks).toBe(2);
  });
});

describe('sessionFileName', () => {
  it('keeps a plain id', () => {
    expect(sessionFileName('5f1e-AB_c.d')).toBe('5f1e-AB_c.d');
  });

  it.each(['../../etc/passwd', 'a/b', '..', '.', 'nul\0byte', 'x'.repeat(129), 'spa ce'])('hashes the unsafe id %j into a plain name', (id) => {
    const name = sessionFileName(id);
    expect(name).toMatch(/^h-[0-9a-f]{32}$/);
    expect(sessionFileName(id)).toBe(name);
  });

  it('names the absent session', () => {
    expect(sessionFileName(undefined)).toBe('no-session');
  });
});

describe('parsePayload per harness', () => {
  it('maps each harness\'s event names, session keys and project dirs', () => {
    expect(parseWith('{"hook_event_name":"AfterAgent","session_id":"g"}', ADAPTERS.gemini, undefined)).toMatchObject({ event: 'stop', sessionId: 'g' });
    expect(parseWith('{"hook_event_name":"BeforeAgent"}', ADAPTERS.gemini, undefined).event).toBe('turn-start');
    expect(parseWith('{"hookEventName":"agentStop","sessionId":"c"}', ADAPTERS.copilot, undefined)).toMatchObject({ event: 'stop', sessionId: 'c' });
    const cursor = parseWith('{"hook_event_name":"stop","conversation_id":"k","status":"aborted","loop_count":1,"workspace_roots":["/w"]}', ADAPTERS.cursor, undefined);
    expect(cursor).toMatchObject({ event: 'stop', sessionId: 'k', dirs: ['/w'], notCompleted: true });
    expect(parseWith('{"hook_event_name":"Stop"}', ADAPTERS.gemini, undefined).event).toBe('other');
  });

  it('takes the event from --event when the payload does not name it', () => {
    expect(parseWith('{"sessionId":"c"}', ADAPTERS.copilot, 'agentStop')).toMatchObject({ valid: true, event: 'stop' });
  });

  it('notices a Claude-format hook run by Copilot CLI', () => {
    expect(parseWith('{"hook_event_name":"Stop","session_id":"s","stop_reason":"end_turn"}', ADAPTERS.claude, undefined).viaCopilot).toBe(true);
  });
});
