import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookBin, InstallHooks } from '../../src/harness/install/installer.js';
import { installer } from '../../src/harness/install/gemini.js';
import { SettingsError } from '../../src/harness/install/settings-merge.js';

const FILE = '.gemini/settings.json';
const local = (relativePath: string): HookBin => ({ mode: 'local', relativePath, program: undefined });
const COMMAND = installer.command(local('node_modules/.bin/gate'));
const HOOKS: InstallHooks = { command: COMMAND, stopTimeoutSeconds: 690, turnStartTimeoutSeconds: 30, maxBlocks: 3 };

const stopEntry = { name: 'gate', type: 'command', command: COMMAND, timeout: 690_000 };
const startEntry = { name: 'gate', type: 'command', command: COMMAND, timeout: 30_000 };
const gateEvents = { AfterAgent: [{ hooks: [stopEntry] }], BeforeAgent: [{ hooks: [startEntry] }] };
const userHook = { name: 'audit', type: 'command', command: '$GEMINI_PROJECT_DIR/.gemini/hooks/audit.sh', timeout: 5000 };
const oldGate = { type: 'command', command: 'npx --yes stopgate@0.0.9 run --harness gemini', timeout: 60_000 };
const auth = { security: { auth: { selectedType: 'gemini-api-key' } }, general: { vimMode: true } };

const pretty = (value: unknown, indent = '  ', eol = '\n'): string => `${JSON.stringify(value, null, indent)}\n`.replace(/\n/g, eol);

describe('the Gemini CLI installer', () => {
  it('writes .gemini/settings.json, or ~/.gemini/settings.json for a personal install (no uncommitted project file)', () => {
    expect(installer.file(false, '/home/me')).toBe(FILE);
    expect(installer.file(true, '/home/me')).toBe(join('/home/me', '.gemini', 'settings.json'));
    expect(installer.privateFiles(true)).toEqual([]);
  });

  it('leaves $GEMINI_PROJECT_DIR unquoted (Gemini substitutes it already quoted) and turns a failure to start into a warning', () => {
    expect(COMMAND).toBe('$GEMINI_PROJECT_DIR/node_modules/.bin/gate run --harness gemini || exit 1');
    expect(installer.command(local('../../node_modules/.bin/gate'))).toBe('$GEMINI_PROJECT_DIR/../../node_modules/.bin/gate run --harness gemini || exit 1');
    expect(installer.command(local("it's here/node_modules/.bin/gate"))).toBe(`$GEMINI_PROJECT_DIR/'it'\\''s here/node_modules/.bin/gate' run --harness gemini || exit 1`);
    expect(installer.command({ mode: 'global', relativePath: undefined, program: 'gate' })).toBe('gate run --harness gemini || exit 1');
    expect(installer.command({ mode: 'npx', relativePath: undefined, program: 'npx --yes stopgate@1.2.3' })).toBe('npx --yes stopgate@1.2.3 run --harness gemini || exit 1');
  });

  it("recognises every form of its command as gate's own, with or without the fallback", () => {
    for (const bin of [local('node_modules/.bin/gate'), local("it's here/node_modules/.bin/gate"), { mode: 'npx', relativePath: undefined, program: 'npx --yes stopgate@1.2.3' } as const]) {
      const command = installer.command(bin);
      const { text } = installer.merge(undefined, { ...HOOKS, command }, FILE);
      expect(installer.find(text, FILE).map((hook) => hook.command)).toEqual([command, command]);
      expect(installer.remove(text, FILE)).toMatchObject({ text: '{}\n', empty: true });
    }
    const bare = pretty({ hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'gate run --harness gemini' }] }] } });
    expect(installer.find(bare, FILE)).toEqual([{ event: 'AfterAgent', command: 'gate run --harness gemini' }]);
    const foreign = pretty({ hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'gate run --harness gemini || rm -rf x' }] }] } });
    expect(installer.find(foreign, FILE)).toEqual([]);
  });

  it('says how to trust the folder, interactively and in CI', () => {
    expect(installer.enableStep).toMatch(/trust/);
    expect(installer.enableStep).toMatch(/--skip-trust|GEMINI_CLI_TRUST_WORKSPACE=true/);
  });

  it('refuses a settings file with comments (Gemini accepts them, gate edits strict JSON only) and names the spot', () => {
    const commented = '{\n  // mine\n  "general": {}\n}\n';
    expect(() => installer.merge(commented, HOOKS, FILE)).toThrow(SettingsError);
    expect(() => installer.merge(commented, HOOKS, FILE)).toThrow(/\.gemini\/settings\.json, line 2, column 3: .*comments.*Gemini CLI also accepts comments/);
  });

  it('refuses hooks of the wrong shape', () => {
    expect(() => installer.merge(pretty({ hooks: { AfterAgent: {} } }), HOOKS, FILE)).toThrow(/"hooks.AfterAgent" must be an array of matcher groups/);
  });
});

interface Fixture { name: string; before: object | undefined; merged: object; removed: object }
const FIXTURES: Fixture[] = [
  { name: 'no file', before: undefined, merged: { hooks: gateEvents }, removed: {} },
  { name: 'auth and general settings', before: auth, merged: { ...auth, hooks: gateEvents }, removed: auth },
  {
    name: "a user's own AfterAgent hook and a tool hook with a matcher",
    before: { hooks: { AfterAgent: [{ hooks: [userHook] }], BeforeTool: [{ matcher: 'write_file|replace', hooks: [userHook] }] } },
    merged: { hooks: { AfterAgent: [{ hooks: [userHook] }, { hooks: [stopEntry] }], BeforeTool: [{ matcher: 'write_file|replace', hooks: [userHook] }], BeforeAgent: [{ hooks: [startEntry] }] } },
    removed: { hooks: { AfterAgent: [{ hooks: [userHook] }], BeforeTool: [{ matcher: 'write_file|replace', hooks: [userHook] }] } },
  },
  {
    name: 'an older gate entry (npx, 60 s) inside a group with a user hook',
    before: { hooksConfig: { enabled: true }, hooks: { AfterAgent: [{ sequential: true, hooks: [userHook, oldGate] }] } },
    merged: { hooksConfig: { enabled: true }, hooks: { AfterAgent: [{ sequential: true, hooks: [userHook] }, { hooks: [stopEntry] }], BeforeAgent: [{ hooks: [startEntry] }] } },
    removed: { hooksConfig: { enabled: true }, hooks: { AfterAgent: [{ sequential: true, hooks: [userHook] }] } },
  },
];

describe.each([
  { layout: '2 spaces', indent: '  ', eol: '\n' },
  { layout: 'tabs and CRLF', indent: '\t', eol: '\r\n' },
])('.gemini/settings.json with $layout', ({ indent, eol }) => {
  describe.each(FIXTURES)('holding $name', ({ before, merged, removed }) => {
    const original = before === undefined ? undefined : pretty(before, indent, eol);
    const layoutOf = (value: object) => (before === undefined ? pretty(value) : pretty(value, indent, eol));

    it('merge adds an AfterAgent and a BeforeAgent hook, timeouts in milliseconds, and keeps everything else', () => {
      expect(installer.merge(original, HOOKS, FILE)).toEqual({ text: layoutOf(merged), changed: true });
    });

    it('a second merge changes nothing; a new timeout replaces the entry', () => {
      const once = installer.merge(original, HOOKS, FILE).text;
      expect(installer.merge(once, HOOKS, FILE)).toEqual({ text: once, changed: false });
      const longer = installer.merge(once, { ...HOOKS, stopTimeoutSeconds: 900 }, FILE).text;
      expect(installer.find(longer, FILE).find((hook) => hook.event === 'AfterAgent')?.timeoutSeconds).toBe(900);
    });

    it('remove takes out only gate, back to the original bytes', () => {
      const result = installer.remove(installer.merge(original, HOOKS, FILE).text, FILE);
      expect(result.text).toBe(original !== undefined && JSON.stringify(removed) === JSON.stringify(before) ? original : layoutOf(removed));
      expect(result.empty).toBe(Object.keys(removed).length === 0);
    });

    it('find reports both entries with their timeouts in seconds', () => {
      expect(installer.find(installer.merge(original, HOOKS, FILE).text, FILE)).toEqual([
        { event: 'AfterAgent', command: COMMAND, timeoutSeconds: 690 },
        { event: 'BeforeAgent', command: COMMAND, timeoutSeconds: 30 },
      ]);
    });
  });
});
