import { describe, expect, it } from 'vitest';
import { parsePayload } from '../../src/hook/parse-payload.js';
import { sessionFileName } from '../../src/hook/session-file-name.js';

describe('parsePayload', () => {
  it('reads a Claude Code Stop payload', () => {
    const payload = parsePayload(
      JSON.stringify({ session_id: 'abc-123', cwd: '/repo', hook_event_name: 'Stop', stop_hook_active: true, background_tasks: [], session_crons: [] }),
    );
    expect(payload).toMatchObject({ valid: true, event: 'Stop', sessionId: 'abc-123', cwd: '/repo', stopHookActive: true, runningBackgroundTasks: 0 });
  });

  it.each(['', 'not json', '[]', 'null', '42', '{"hook_event_name": 7}', '{"session_id": "x"}'])('marks %j invalid without throwing', (text) => {
    expect(parsePayload(text).valid).toBe(false);
  });

  it('tolerates fields of the wrong type', () => {
    const payload = parsePayload(JSON.stringify({ hook_event_name: 'Stop', session_id: 12, cwd: ['x'], stop_hook_active: 'yes', background_tasks: 'many' }));
    expect(payload).toMatchObject({ valid: true, sessionId: undefined, cwd: undefined, stopHookActive: false, runningBackgroundTasks: 0 });
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
