import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookBin, InstallHooks } from '../../src/harness/install/installer.js';
import { installer } from '../../src/harness/install/codex.js';
import { SettingsError } from '../../src/harness/install/settings-merge.js';

const FILE = '.codex/hooks.json';
const ROOT = '$(git rev-parse --show-toplevel 2>/dev/null || pwd)';
const local = (relativePath: string): HookBin => ({ mode: 'local', relativePath, program: undefined });
const COMMAND = installer.command(local('node_modules/.bin/gate'));
const HOOKS: InstallHooks = { command: COMMAND, stopTimeoutSeconds: 690, turnStartTimeoutSeconds: 30, maxBlocks: 3 };

const stopEntry = { type: 'command', command: COMMAND, timeout: 690 };
const promptEntry = { type: 'command', command: COMMAND, timeout: 30 };
const gateEvents = { Stop: [{ hooks: [stopEntry] }], UserPromptSubmit: [{ hooks: [promptEntry] }] };
const userHook = { type: 'command', command: 'python3 .codex/hooks/notify.py', statusMessage: 'Notifying' };
const oldGate = { type: 'command', command: 'npx --yes stopgate@0.0.9 run --harness codex', timeout: 600 };

const pretty = (value: unknown, indent = '  ', eol = '\n'): string => `${JSON.stringify(value, null, indent)}\n`.replace(/\n/g, eol);

describe('the Codex installer', () => {
  it('writes .codex/hooks.json, or ~/.codex/hooks.json for a personal install (Codex has no uncommitted project file)', () => {
    expect(installer.file(false, '/home/me')).toBe(FILE);
    expect(installer.file(true, '/home/me')).toBe(join('/home/me', '.codex', 'hooks.json'));
    expect(installer.privateFiles(true)).toEqual([]);
    expect(installer.privateFiles(false)).toEqual([]);
  });

  it('addresses a local install from the git root, since Codex runs hooks in its session directory and names no project', () => {
    expect(COMMAND).toBe(`"${ROOT}"/node_modules/.bin/gate run --harness codex`);
    // Hoisted to a monorepo root: that root is the git root.
    expect(installer.command(local('../../node_modules/.bin/gate'))).toBe(COMMAND);
    expect(installer.command(local('x y/node_modules/.bin/gate'))).toBe(`"${ROOT}/x y/node_modules/.bin/gate" run --harness codex`);
    expect(installer.command(local('a"b$c/node_modules/.bin/gate'))).toBe(`"${ROOT}/a\\"b\\$c/node_modules/.bin/gate" run --harness codex`);
  });

  it('runs a global or npx install by name', () => {
    expect(installer.command({ mode: 'global', relativePath: undefined, program: 'gate' })).toBe('gate run --harness codex');
    expect(installer.command({ mode: 'npx', relativePath: undefined, program: 'npx --yes stopgate@1.2.3' })).toBe('npx --yes stopgate@1.2.3 run --harness codex');
  });

  it("writes every form of the command so that a later run recognises it as gate's own", () => {
    const bins: HookBin[] = [
      local('node_modules/.bin/gate'),
      local('x y/node_modules/.bin/gate'),
      local('a"b$c/node_modules/.bin/gate'),
      { mode: 'global', relativePath: undefined, program: 'gate' },
      { mode: 'npx', relativePath: undefined, program: 'npx --yes stopgate@1.2.3' },
    ];
    for (const bin of bins) {
      const command = installer.command(bin);
      const { text } = installer.merge(undefined, { ...HOOKS, command }, FILE);
      expect(installer.find(text, FILE).map((hook) => hook.command)).toEqual([command, command]);
      expect(installer.remove(text, FILE)).toMatchObject({ text: '{}\n', empty: true });
    }
  });

  it('tells the user to trust the project and approve the hooks under /hooks', () => {
    expect(installer.enableStep).toMatch(/trust the project/);
    expect(installer.enableStep).toMatch(/approve .*under \/hooks/);
  });
});

interface Fixture { name: string; before: object | undefined; merged: object; removed: object }
const FIXTURES: Fixture[] = [
  { name: 'no file', before: undefined, merged: { hooks: gateEvents }, removed: {} },
  { name: 'an empty object', before: {}, merged: { hooks: gateEvents }, removed: {} },
  {
    name: 'a description and a user Stop hook',
    before: { description: 'Team hooks', hooks: { Stop: [{ hooks: [userHook] }] } },
    merged: { description: 'Team hooks', hooks: { Stop: [{ hooks: [userHook] }, { hooks: [stopEntry] }], UserPromptSubmit: [{ hooks: [promptEntry] }] } },
    removed: { description: 'Team hooks', hooks: { Stop: [{ hooks: [userHook] }] } },
  },
  {
    name: 'other events with matchers',
    before: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }], SessionStart: [{ matcher: 'startup|resume', hooks: [userHook] }] } },
    merged: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }], SessionStart: [{ matcher: 'startup|resume', hooks: [userHook] }], ...gateEvents } },
    removed: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }], SessionStart: [{ matcher: 'startup|resume', hooks: [userHook] }] } },
  },
  {
    name: 'an older gate entry (npx, another timeout) beside a user hook',
    before: { hooks: { Stop: [{ hooks: [userHook, oldGate] }], UserPromptSubmit: [{ hooks: [{ ...oldGate, timeout: 10 }] }] } },
    merged: { hooks: { Stop: [{ hooks: [userHook] }, { hooks: [stopEntry] }], UserPromptSubmit: [{ hooks: [promptEntry] }] } },
    removed: { hooks: { Stop: [{ hooks: [userHook] }] } },
  },
];

describe.each([
  { layout: '2 spaces', indent: '  ', eol: '\n' },
  { layout: 'tabs and CRLF', indent: '\t', eol: '\r\n' },
])('.codex/hooks.json with $layout', ({ indent, eol }) => {
  describe.each(FIXTURES)('holding $name', ({ before, merged, removed }) => {
    const original = before === undefined ? undefined : pretty(before, indent, eol);
    const layoutOf = (value: object) => (before === undefined || Object.keys(before).length === 0 ? pretty(value, '  ', original === undefined ? '\n' : eol) : pretty(value, indent, eol));

    it('merge adds a Stop and a UserPromptSubmit hook, timeouts in seconds, and keeps everything else', () => {
      expect(installer.merge(original, HOOKS, FILE)).toEqual({ text: layoutOf(merged), changed: true });
    });

    it('a second merge changes nothing', () => {
      const once = installer.merge(original, HOOKS, FILE).text;
      expect(installer.merge(once, HOOKS, FILE)).toEqual({ text: once, changed: false });
    });

    it('remove takes out only gate', () => {
      const result = installer.remove(installer.merge(original, HOOKS, FILE).text, FILE);
      const isOriginal = original !== undefined && JSON.stringify(removed) === JSON.stringify(before);
      expect(result.text).toBe(isOriginal ? original : layoutOf(removed));
      expect(result.empty).toBe(Object.keys(removed).length === 0);
    });

    it('find reports both entries', () => {
      expect(installer.find(installer.merge(original, HOOKS, FILE).text, FILE)).toEqual([
        { event: 'Stop', command: COMMAND, timeoutSeconds: 690 },
        { event: 'UserPromptSubmit', command: COMMAND, timeoutSeconds: 30 },
      ]);
    });
  });
});

describe('a re-run of init', () => {
  it('keeps gate in place when nothing changed, so Codex keeps its approval (keyed by event, group index and hash)', () => {
    const installed = pretty({ hooks: { Stop: [{ hooks: [stopEntry] }, { hooks: [userHook] }], UserPromptSubmit: [{ hooks: [promptEntry] }] } });
    expect(installer.merge(installed, HOOKS, FILE)).toEqual({ text: installed, changed: false });
  });

  it('refreshes the Stop timeout when the gates changed', () => {
    const installed = installer.merge(undefined, HOOKS, FILE).text;
    const { text, changed } = installer.merge(installed, { ...HOOKS, stopTimeoutSeconds: 120 }, FILE);
    expect(changed).toBe(true);
    expect(JSON.parse(text)).toEqual({ hooks: { Stop: [{ hooks: [{ ...stopEntry, timeout: 120 }] }], UserPromptSubmit: [{ hooks: [promptEntry] }] } });
  });
});

describe('an invalid hooks file', () => {
  it.each([
    { name: 'a trailing comma', text: '{\n  "hooks": {},\n}\n', line: 2, column: 14 },
    { name: 'a comment', text: '{\n  // team hooks\n  "hooks": {}\n}\n', line: 2, column: 3 },
    { name: 'an array at the top', text: '[]\n', line: 1, column: 1 },
    { name: 'hooks.Stop that is not an array', text: '{"hooks": {"Stop": {"command": "x"}}}', line: 1, column: 20 },
  ])('is refused with its line and column, and not written: $name', ({ text, line, column }) => {
    let error: unknown;
    try {
      installer.merge(text, HOOKS, FILE);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect(error).toMatchObject({ file: FILE, line, column });
    expect(() => installer.remove(text, FILE)).toThrow(SettingsError);
  });
});

describe('the Codex installer with subagents gated', () => {
  it('adds a SubagentStop entry like the Stop one when the config says subagents: true (Codex 0.171.0 fires SubagentStop with the Stop contract)', () => {
    const { text } = installer.merge(undefined, { ...HOOKS, subagents: true }, FILE);
    expect(JSON.parse(text)).toEqual({ hooks: { ...gateEvents, SubagentStop: [{ hooks: [stopEntry] }] } });
    expect(installer.find(text, FILE).map((hook) => hook.event)).toEqual(['Stop', 'UserPromptSubmit', 'SubagentStop']);
    expect(JSON.parse(installer.merge(undefined, HOOKS, FILE).text)).toEqual({ hooks: gateEvents });
  });
});
