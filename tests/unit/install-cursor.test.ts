import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookBin, InstallHooks } from '../../src/harness/install/installer.js';
import { installer } from '../../src/harness/install/cursor.js';
import { SettingsError } from '../../src/harness/install/settings-merge.js';

const FILE = '.cursor/hooks.json';
const local = (relativePath: string): HookBin => ({ mode: 'local', relativePath, program: undefined });
const COMMAND = installer.command(local('node_modules/.bin/gate'));
const HOOKS: InstallHooks = { command: COMMAND, stopTimeoutSeconds: 690, turnStartTimeoutSeconds: 30, maxBlocks: 3 };

const stopEntry = { command: COMMAND, timeout: 690, loop_limit: 3 };
const startEntry = { command: COMMAND, timeout: 30 };
const userHook = { command: './hooks/audit.sh' };
const oldGate = { command: 'npx --yes stopgate@0.0.9 run --harness cursor', loop_limit: 5 };

const pretty = (value: unknown, indent = '  ', eol = '\n'): string => `${JSON.stringify(value, null, indent)}\n`.replace(/\n/g, eol);

describe('the Cursor installer', () => {
  it('writes .cursor/hooks.json, or ~/.cursor/hooks.json for a personal install (no uncommitted project file)', () => {
    expect(installer.file(false, '/home/me')).toBe(FILE);
    expect(installer.file(true, '/home/me')).toBe(join('/home/me', '.cursor', 'hooks.json'));
    expect(installer.privateFiles(true)).toEqual([]);
  });

  it('reaches a local install through CURSOR_PROJECT_DIR, quoted for the shell', () => {
    expect(COMMAND).toBe('"$CURSOR_PROJECT_DIR"/node_modules/.bin/gate run --harness cursor');
    expect(installer.command(local('x y/node_modules/.bin/gate'))).toBe('"$CURSOR_PROJECT_DIR/x y/node_modules/.bin/gate" run --harness cursor');
    expect(installer.command({ mode: 'global', relativePath: undefined, program: 'gate' })).toBe('gate run --harness cursor');
  });

  it("creates the file with version 1, a stop entry whose loop_limit is gate's bound, and a beforeSubmitPrompt entry", () => {
    expect(installer.merge(undefined, HOOKS, FILE)).toEqual({ text: pretty({ version: 1, hooks: { stop: [stopEntry], beforeSubmitPrompt: [startEntry] } }), changed: true });
    expect(JSON.parse(installer.merge(undefined, { ...HOOKS, maxBlocks: 5 }, FILE).text).hooks.stop[0].loop_limit).toBe(5);
  });

  it('a changed bound rewrites the stop entry in place', () => {
    const once = installer.merge(pretty({ version: 1, hooks: { stop: [userHook] } }), HOOKS, FILE).text;
    const again = installer.merge(once, { ...HOOKS, maxBlocks: 2 }, FILE).text;
    expect(JSON.parse(again).hooks.stop).toEqual([userHook, { ...stopEntry, loop_limit: 2 }]);
  });

  it('finds its entries, and removes the file down to nothing when it made it', () => {
    const { text } = installer.merge(undefined, HOOKS, FILE);
    expect(installer.find(text, FILE)).toEqual([
      { event: 'stop', command: COMMAND, timeoutSeconds: 690 },
      { event: 'beforeSubmitPrompt', command: COMMAND, timeoutSeconds: 30 },
    ]);
    expect(installer.remove(text, FILE)).toEqual({ text: pretty({ version: 1 }), changed: true, empty: true });
  });

  it('refuses invalid JSON and entries that are not arrays, naming the spot', () => {
    expect(() => installer.merge('{"version": 1,}', HOOKS, FILE)).toThrow(SettingsError);
    expect(() => installer.merge('{"version": 1,}', HOOKS, FILE)).toThrow(/\.cursor\/hooks\.json, line 1, column 14: .*trailing comma/);
    expect(() => installer.merge(pretty({ version: 1, hooks: { stop: { command: 'x' } } }), HOOKS, FILE)).toThrow(/"hooks.stop" must be an array of hook entries/);
  });

  it('tells the user to trust the workspace and restart Cursor', () => {
    expect(installer.enableStep).toMatch(/trusted workspace/);
    expect(installer.enableStep).toMatch(/restart Cursor/);
  });
});

interface Fixture { name: string; before: object; merged: object; removed: object }
const FIXTURES: Fixture[] = [
  { name: 'version only', before: { version: 1 }, merged: { version: 1, hooks: { stop: [stopEntry], beforeSubmitPrompt: [startEntry] } }, removed: { version: 1 } },
  {
    name: "a user's own stop hook and other events",
    before: { version: 1, hooks: { stop: [userHook], afterFileEdit: [{ command: './hooks/format.sh' }] } },
    merged: { version: 1, hooks: { stop: [userHook, stopEntry], afterFileEdit: [{ command: './hooks/format.sh' }], beforeSubmitPrompt: [startEntry] } },
    removed: { version: 1, hooks: { stop: [userHook], afterFileEdit: [{ command: './hooks/format.sh' }] } },
  },
  {
    name: 'an older gate entry before a user hook',
    before: { version: 1, hooks: { stop: [oldGate, userHook] } },
    merged: { version: 1, hooks: { stop: [userHook, stopEntry], beforeSubmitPrompt: [startEntry] } },
    removed: { version: 1, hooks: { stop: [userHook] } },
  },
];

describe.each([
  { layout: '2 spaces', indent: '  ', eol: '\n' },
  { layout: '4 spaces and CRLF', indent: '    ', eol: '\r\n' },
])('.cursor/hooks.json with $layout', ({ indent, eol }) => {
  describe.each(FIXTURES)('holding $name', ({ before, merged, removed }) => {
    const original = pretty(before, indent, eol);

    it('merge adds gate to the flat event arrays and keeps everything else', () => {
      expect(installer.merge(original, HOOKS, FILE)).toEqual({ text: pretty(merged, indent, eol), changed: true });
    });

    it('a second merge changes nothing', () => {
      const once = installer.merge(original, HOOKS, FILE).text;
      expect(installer.merge(once, HOOKS, FILE)).toEqual({ text: once, changed: false });
    });

    it('remove takes out only gate', () => {
      const result = installer.remove(installer.merge(original, HOOKS, FILE).text, FILE);
      expect(result.text).toBe(pretty(removed, indent, eol));
      expect(result.empty).toBe(JSON.stringify(removed) === JSON.stringify({ version: 1 }));
    });
  });
});
