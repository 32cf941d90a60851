import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/harness/adapters.js';
import type { HookBin, InstallHooks } from '../../src/harness/install/installer.js';
import { installer, qwenTimeout } from '../../src/harness/install/qwen.js';
import { parsePayload } from '../../src/hook/parse-payload.js';
import { SettingsError } from '../../src/harness/install/settings-merge.js';

const FILE = '.qwen/settings.json';
const local = (relativePath: string): HookBin => ({ mode: 'local', relativePath, program: undefined });
const COMMAND = installer.command(local('node_modules/.bin/gate'));
const HOOKS: InstallHooks = { command: COMMAND, stopTimeoutSeconds: 690, turnStartTimeoutSeconds: 30, maxBlocks: 3 };
const stopEntry = { type: 'command', command: COMMAND, timeout: 690 };
const promptEntry = { type: 'command', command: COMMAND, timeout: 30 };
const gateEvents = { Stop: [{ hooks: [stopEntry] }], UserPromptSubmit: [{ hooks: [promptEntry] }] };
const userHook = { type: 'command', command: '"$QWEN_PROJECT_DIR/.qwen/hooks/check.sh"', name: 'check', timeout: 10 };
/** What `qwen` itself needs in ~/.qwen/settings.json to talk to an OpenAI-compatible model. */
const AUTH = { security: { auth: { selectedType: 'openai' } }, model: { name: 'qwen3-coder' } };

const pretty = (value: unknown, indent = '  ', eol = '\n'): string => `${JSON.stringify(value, null, indent)}\n`.replace(/\n/g, eol);

describe('the Qwen Code installer', () => {
  it('writes .qwen/settings.json, or ~/.qwen/settings.json for a personal install (Qwen has no uncommitted project file)', () => {
    expect(installer.file(false, '/home/me')).toBe(FILE);
    expect(installer.file(true, '/home/me')).toBe(join('/home/me', '.qwen', 'settings.json'));
    expect(installer.privateFiles(true)).toEqual([]);
  });

  it('addresses a local install from QWEN_PROJECT_DIR, quoted for paths with spaces, and names the harness', () => {
    expect(COMMAND).toBe('"$QWEN_PROJECT_DIR"/node_modules/.bin/gate run --harness qwen');
    expect(installer.command(local('x y/node_modules/.bin/gate'))).toBe('"$QWEN_PROJECT_DIR/x y/node_modules/.bin/gate" run --harness qwen');
    expect(installer.command({ mode: 'global', relativePath: undefined, program: 'gate' })).toBe('gate run --harness qwen');
    expect(installer.command({ mode: 'npx', relativePath: undefined, program: 'npx --yes stopgate@1.2.3' })).toBe('npx --yes stopgate@1.2.3 run --harness qwen');
  });

  it('adds Stop and UserPromptSubmit in matcher groups, keeping every other setting', () => {
    const { text, changed } = installer.merge(pretty(AUTH), HOOKS, FILE);
    expect(changed).toBe(true);
    expect(JSON.parse(text)).toEqual({ ...AUTH, hooks: gateEvents });
    expect(installer.find(text, FILE)).toEqual([
      { event: 'Stop', command: COMMAND, timeoutSeconds: 690 },
      { event: 'UserPromptSubmit', command: COMMAND, timeoutSeconds: 30 },
    ]);
  });

  it('writes a timeout of 1000 s or more in milliseconds, since Qwen reads 1000 and up as milliseconds', () => {
    expect(qwenTimeout(999)).toBe(999);
    expect(qwenTimeout(1000)).toBe(1_000_000);
    const { text } = installer.merge(undefined, { ...HOOKS, stopTimeoutSeconds: 1830 }, FILE);
    expect(JSON.parse(text).hooks.Stop[0].hooks[0].timeout).toBe(1_830_000);
    expect(installer.find(text, FILE)[0]).toEqual({ event: 'Stop', command: COMMAND, timeoutSeconds: 1830 });
  });

  it('is idempotent, and uninstall gives back the bytes from before (CRLF and tabs kept)', () => {
    for (const before of [pretty(AUTH), pretty({ ...AUTH, hooks: { Stop: [{ hooks: [userHook] }] } }, '\t', '\r\n')]) {
      const first = installer.merge(before, HOOKS, FILE);
      expect(installer.merge(first.text, HOOKS, FILE)).toEqual({ text: first.text, changed: false });
      expect(first.text.includes('\r\n')).toBe(before.includes('\r\n'));
      expect(installer.remove(first.text, FILE)).toMatchObject({ text: before, changed: true, empty: false });
    }
    expect(installer.remove(installer.merge(undefined, HOOKS, FILE).text, FILE)).toMatchObject({ text: '{}\n', empty: true });
  });

  it('refuses a file that is not strict JSON, naming file, line and column, and leaves it alone', () => {
    const commented = '{\n  // my model\n  "model": {}\n}\n';
    expect(() => installer.merge(commented, HOOKS, FILE)).toThrow(SettingsError);
    expect(() => installer.merge(commented, HOOKS, FILE)).toThrow(/^\.qwen\/settings\.json, line 2, column 3: not valid JSON: comments are not allowed .*gate edits settings only as strict JSON/);
  });
});

describe("Qwen Code's payloads (measured on 0.24.4)", () => {
  const qwen = ADAPTERS.qwen;
  const common = { session_id: 's-1', transcript_path: '/t.jsonl', cwd: '/repo', timestamp: '2026-01-01T00:00:00.000Z', permission_mode: 'yolo', prompt_id: 's-1########0' };
  const parse = (payload: object) => parsePayload(JSON.stringify(payload), qwen, undefined);

  it('starts a turn only at the user\'s own submission: UserPromptSubmit also fires after each tool result and after a block', () => {
    expect(parse({ ...common, hook_event_name: 'UserPromptSubmit', prompt: 'make b', submitted_prompt: 'make b' }).event).toBe('turn-start');
    expect(parse({ ...common, hook_event_name: 'UserPromptSubmit', prompt: '' }).event).toBe('other');
    const report = 'gate: 1 of 2 checks failed (test); stop refused, block 1 of 3.\n\n## test: failed (exit 1)\n';
    expect(parse({ ...common, hook_event_name: 'UserPromptSubmit', prompt: report }).event).toBe('other');
  });

  it('reads the Stop payload and blocks with exit 2', () => {
    const stop = parse({ ...common, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done', background_tasks: [], crons: [] });
    expect(stop).toMatchObject({ valid: true, event: 'stop', sessionId: 's-1', dirs: ['/repo'], runningBackgroundTasks: 0, viaCopilot: false });
    expect(qwen.protocol).toBe('exit2');
    expect(qwen.projectEnv[0]).toBe('QWEN_PROJECT_DIR');
  });
});
