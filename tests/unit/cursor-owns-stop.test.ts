import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cursorHookGates } from '../../src/harness/cursor-owns-stop.js';
import { parsePayload } from '../../src/hook/parse-payload.js';
import { ADAPTERS } from '../../src/harness/adapters.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gate-cursor-'));
  dirs.push(dir);
  return dir;
}

function hooksFile(dir: string, hooks: unknown): void {
  mkdirSync(join(dir, '.cursor'), { recursive: true });
  writeFileSync(join(dir, '.cursor', 'hooks.json'), JSON.stringify({ version: 1, hooks }));
}

const STOP = { command: 'npx gate run --harness cursor', timeout: 330, loop_limit: 3 };

describe('cursorHookGates: does Cursor run gate itself at a stop?', () => {
  it("is true with gate's stop hook in the project's or the user's .cursor/hooks.json", () => {
    const project = tempDir();
    const home = tempDir();
    expect(cursorHookGates([project], { HOME: home })).toBe(false);
    hooksFile(project, { stop: [STOP] });
    expect(cursorHookGates([project], { HOME: home })).toBe(true);
    const other = tempDir();
    hooksFile(home, { stop: [STOP] });
    expect(cursorHookGates([other], { HOME: home })).toBe(true);
  });

  it('is false with only a turn-start hook, someone else\'s stop hook, or a file gate cannot read', () => {
    const project = tempDir();
    const home = tempDir();
    hooksFile(project, { beforeSubmitPrompt: [STOP], stop: [{ command: './scripts/notify.sh' }] });
    expect(cursorHookGates([project], { HOME: home })).toBe(false);
    writeFileSync(join(project, '.cursor', 'hooks.json'), '{ "hooks": { "stop": [ ');
    expect(cursorHookGates([project], { HOME: home })).toBe(false);
  });
});

describe('viaCursor: a Claude-format hook run by Cursor', () => {
  it("is told by Cursor's payload fields, and only for the Claude entry", () => {
    const cursor = JSON.stringify({ hook_event_name: 'Stop', conversation_id: 'c', generation_id: 'g', cursor_version: '1.7.2', status: 'completed' });
    expect(parsePayload(cursor, ADAPTERS.claude, undefined).viaCursor).toBe(true);
    expect(parsePayload(JSON.stringify({ hook_event_name: 'Stop', conversation_id: 'c', generation_id: 'g' }), ADAPTERS.claude, undefined).viaCursor).toBe(true);
    expect(parsePayload(JSON.stringify({ hook_event_name: 'Stop', session_id: 's', stop_hook_active: false }), ADAPTERS.claude, undefined).viaCursor).toBe(false);
    expect(parsePayload(cursor, ADAPTERS.cursor, undefined).viaCursor).toBe(false);
  });
});
