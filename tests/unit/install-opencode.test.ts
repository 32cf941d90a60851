import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HookBin, InstallHooks } from '../../src/harness/install/installer.js';
import { installer, readPlugin, renderPlugin } from '../../src/harness/install/opencode.js';
import { SetupError } from '../../src/errors.js';

const FILE = '.opencode/plugin/gate.js';
const local = (relativePath: string): HookBin => ({ mode: 'local', relativePath, program: undefined });
const COMMAND = installer.command(local('node_modules/.bin/gate'));
const HOOKS: InstallHooks = { command: COMMAND, stopTimeoutSeconds: 690, turnStartTimeoutSeconds: 30, maxBlocks: 3 };
const TEMPLATE = readFileSync(new URL('../../templates/opencode-plugin.js', import.meta.url), 'utf8');

describe('the OpenCode installer', () => {
  it('writes a plugin into .opencode/plugin/, a gitignored one beside it for a personal install', () => {
    expect(installer.file(false, '/home/me')).toBe(FILE);
    expect(installer.file(true, '/home/me')).toBe('.opencode/plugin/gate.local.js');
    expect(installer.privateFiles(true)).toEqual(['.opencode/plugin/gate.local.js']);
    expect(installer.privateFiles(false)).toEqual([]);
  });

  it('runs gate without a shell: a local install relative to the project, else by name', () => {
    expect(COMMAND).toBe('node_modules/.bin/gate run --harness opencode');
    expect(installer.command({ mode: 'global', relativePath: undefined, program: 'gate' })).toBe('gate run --harness opencode');
    expect(installer.command({ mode: 'npx', relativePath: undefined, program: 'npx --yes stopgate@1.2.3' })).toBe('npx --yes stopgate@1.2.3 run --harness opencode');
  });

  it('renders the template with the command as argv, the bound and the timeouts in milliseconds', () => {
    const { text, changed } = installer.merge(undefined, HOOKS, FILE);
    expect(changed).toBe(true);
    expect(text).toContain('const GATE = ["node_modules/.bin/gate","run","--harness","opencode"];');
    expect(text).toContain('const MAX_BLOCKS = 3;');
    expect(text).toContain('const STOP_TIMEOUT_MS = 690000;');
    expect(text).toContain('const START_TIMEOUT_MS = 30000;');
    expect(text).not.toMatch(/__[A-Z_]+__/);
    expect(text.split('\n').length).toBe(TEMPLATE.split('\n').length);
    expect(readPlugin(text)).toEqual({ command: ['node_modules/.bin/gate', 'run', '--harness', 'opencode'], maxBlocks: 3, stopTimeoutMs: 690_000, startTimeoutMs: 30_000 });
  });

  it('a second init changes nothing; a new bound or command rewrites the whole file', () => {
    const once = installer.merge(undefined, HOOKS, FILE).text;
    expect(installer.merge(once, HOOKS, FILE)).toEqual({ text: once, changed: false });
    const npx = installer.command({ mode: 'npx', relativePath: undefined, program: 'npx --yes stopgate@1.2.3' });
    const again = installer.merge(once, { ...HOOKS, command: npx, maxBlocks: 5 }, FILE).text;
    expect(readPlugin(again)).toMatchObject({ command: ['npx', '--yes', 'stopgate@1.2.3', 'run', '--harness', 'opencode'], maxBlocks: 5 });
  });

  it('finds the stop and turn-start handlers of its own plugin, also with CRLF line ends', () => {
    const { text } = installer.merge(undefined, HOOKS, FILE);
    const expected = [
      { event: 'session.idle', command: COMMAND, timeoutSeconds: 690 },
      { event: 'chat.message', command: COMMAND, timeoutSeconds: 30 },
    ];
    expect(installer.find(text, FILE)).toEqual(expected);
    expect(installer.find(text.replace(/\n/g, '\r\n'), FILE)).toEqual(expected);
  });

  it('removes its own plugin whole', () => {
    const { text } = installer.merge(undefined, HOOKS, FILE);
    expect(installer.remove(text, FILE)).toEqual({ text: '', changed: true, empty: true });
  });

  it("will not overwrite or delete a file that is not gate's, or that was edited since", () => {
    const foreign = 'export const Mine = async () => ({});\n';
    expect(() => installer.merge(foreign, HOOKS, FILE)).toThrow(SetupError);
    expect(() => installer.merge(foreign, HOOKS, FILE)).toThrow(/\.opencode\/plugin\/gate\.js exists and was not written by gate init/);
    expect(installer.remove(foreign, FILE)).toEqual({ text: foreign, changed: false, empty: false });
    expect(installer.find(foreign, FILE)).toEqual([]);

    const edited = installer.merge(undefined, HOOKS, FILE).text.replace('const MAX_BLOCKS = 3;', 'const MAX_BLOCKS = 3; // more?');
    expect(() => installer.merge(edited, HOOKS, FILE)).toThrow(SetupError);
    expect(() => installer.remove(edited, FILE)).toThrow(/was edited since gate init wrote it, so it is kept/);
  });

  it('rejects a command that is not a list of words', () => {
    const bad = renderPlugin({ ...HOOKS, command: 'gate run' }).replace('["gate","run"]', '[]');
    expect(readPlugin(bad)).toBeUndefined();
  });
});
