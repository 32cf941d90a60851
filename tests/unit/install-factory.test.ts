import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/harness/adapters.js';
import { installer } from '../../src/harness/install/factory.js';
import type { HookBin, InstallHooks } from '../../src/harness/install/installer.js';
import { parsePayload } from '../../src/hook/parse-payload.js';
import { SettingsError } from '../../src/harness/install/settings-merge.js';

const FILE = '.factory/hooks.json';
const local = (relativePath: string): HookBin => ({ mode: 'local', relativePath, program: undefined });
const COMMAND = installer.command(local('node_modules/.bin/gate'));
const HOOKS: InstallHooks = { command: COMMAND, stopTimeoutSeconds: 690, turnStartTimeoutSeconds: 30, maxBlocks: 3 };
const stopEntry = { type: 'command', command: COMMAND, timeout: 690 };
const promptEntry = { type: 'command', command: COMMAND, timeout: 30 };
const gateEvents = { Stop: [{ hooks: [stopEntry] }], UserPromptSubmit: [{ hooks: [promptEntry] }], SessionStart: [{ hooks: [promptEntry] }] };
const userHook = { type: 'command', command: '"$FACTORY_PROJECT_DIR"/.factory/hooks/format.sh' };

const pretty = (value: unknown, indent = '  ', eol = '\n'): string => `${JSON.stringify(value, null, indent)}\n`.replace(/\n/g, eol);

describe('the Factory Droid installer', () => {
  it('writes .factory/hooks.json, or ~/.factory/hooks.json for a personal install', () => {
    expect(installer.file(false, '/home/me')).toBe(FILE);
    expect(installer.file(true, '/home/me')).toBe(join('/home/me', '.factory', 'hooks.json'));
    expect(installer.privateFiles(true)).toEqual([]);
    expect(installer.enableStep).toBeUndefined();
  });

  it('addresses a local install from FACTORY_PROJECT_DIR, quoted for paths with spaces', () => {
    expect(COMMAND).toBe('"$FACTORY_PROJECT_DIR"/node_modules/.bin/gate run --harness factory');
    expect(installer.command(local('x y/node_modules/.bin/gate'))).toBe('"$FACTORY_PROJECT_DIR/x y/node_modules/.bin/gate" run --harness factory');
  });

  it('keys the file by event at its top level (no "hooks" wrapper), matcher groups inside', () => {
    const { text } = installer.merge(undefined, HOOKS, FILE);
    expect(JSON.parse(text)).toEqual(gateEvents);
    expect(installer.find(text, FILE)).toEqual([
      { event: 'Stop', command: COMMAND, timeoutSeconds: 690 },
      { event: 'UserPromptSubmit', command: COMMAND, timeoutSeconds: 30 },
      { event: 'SessionStart', command: COMMAND, timeoutSeconds: 30 },
    ]);
  });

  it('keeps the user\'s hooks, is idempotent, and uninstall gives back the bytes from before', () => {
    const before = pretty({ PostToolUse: [{ matcher: 'Edit|Create', hooks: [userHook] }], Stop: [{ hooks: [userHook] }] }, '    ', '\r\n');
    const merged = installer.merge(before, HOOKS, FILE);
    expect(JSON.parse(merged.text)).toEqual({
      PostToolUse: [{ matcher: 'Edit|Create', hooks: [userHook] }],
      Stop: [{ hooks: [userHook] }, { hooks: [stopEntry] }],
      UserPromptSubmit: [{ hooks: [promptEntry] }],
      SessionStart: [{ hooks: [promptEntry] }],
    });
    expect(merged.text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(merged.text).toContain('\r\n    "UserPromptSubmit": [');
    expect(installer.merge(merged.text, HOOKS, FILE)).toEqual({ text: merged.text, changed: false });
    expect(installer.remove(merged.text, FILE)).toMatchObject({ text: before, changed: true, empty: false });
    expect(installer.remove(installer.merge(undefined, HOOKS, FILE).text, FILE)).toMatchObject({ text: '{}\n', empty: true });
  });

  it('replaces an older gate entry rather than adding a second one', () => {
    const old = pretty({ Stop: [{ hooks: [{ type: 'command', command: 'npx --yes stopgate@0.0.9 run --harness factory', timeout: 60 }] }] });
    expect(JSON.parse(installer.merge(old, HOOKS, FILE).text).Stop).toEqual([{ hooks: [stopEntry] }]);
  });

  it('refuses invalid JSON and an event that is not an array, naming file, line and column', () => {
    expect(() => installer.merge('{"Stop": [}', HOOKS, FILE)).toThrow(/^\.factory\/hooks\.json, line 1, column 11: not valid JSON/);
    expect(() => installer.merge('{\n  "Stop": {}\n}\n', HOOKS, FILE)).toThrow(SettingsError);
    expect(() => installer.merge('{\n  "Stop": {}\n}\n', HOOKS, FILE)).toThrow(/line 2, column 11: "Stop" must be an array of matcher groups/);
  });
});

describe("Factory Droid's payloads (measured on 0.225.2)", () => {
  it('reads the Stop payload and blocks with exit 2', () => {
    const payload = { session_id: 's-2', transcript_path: '/t.jsonl', cwd: '/repo', permission_mode: 'auto-high', hook_event_name: 'Stop', message_id: 'm', stop_hook_active: false, tool_execution_count: 0, elapsed_time: 61 };
    expect(parsePayload(JSON.stringify(payload), ADAPTERS.factory, undefined)).toMatchObject({ valid: true, event: 'stop', sessionId: 's-2', dirs: ['/repo'] });
    expect(ADAPTERS.factory.protocol).toBe('exit2');
    expect(ADAPTERS.factory.projectEnv[0]).toBe('FACTORY_PROJECT_DIR');
  });

  it('starts a turn at SessionStart (droid exec fires no UserPromptSubmit), except after compaction', () => {
    const start = { session_id: 's-2', transcript_path: '/t.jsonl', cwd: '/repo', permission_mode: 'off', hook_event_name: 'SessionStart', source: 'startup' };
    expect(parsePayload(JSON.stringify(start), ADAPTERS.factory, undefined).event).toBe('turn-start');
    expect(parsePayload(JSON.stringify({ ...start, source: 'compact' }), ADAPTERS.factory, undefined).event).toBe('other');
    const prompt = { session_id: 's-2', cwd: '/repo', hook_event_name: 'UserPromptSubmit', prompt: 'Refactor sum.' };
    expect(parsePayload(JSON.stringify(prompt), ADAPTERS.factory, undefined).event).toBe('turn-start');
  });
});
