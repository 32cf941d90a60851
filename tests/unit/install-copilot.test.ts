import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/harness/adapters.js';
import { installer } from '../../src/harness/install/copilot.js';
import type { HookBin, InstallHooks } from '../../src/harness/install/installer.js';
import { parsePayload } from '../../src/hook/parse-payload.js';
import { SettingsError } from '../../src/harness/install/settings-merge.js';

const TEAM = '.github/hooks/gate.json';
const PERSONAL = '.github/copilot/settings.local.json';
const local = (relativePath: string): HookBin => ({ mode: 'local', relativePath, program: undefined });
const COMMAND = installer.command(local('node_modules/.bin/gate'));
const HOOKS: InstallHooks = { command: COMMAND, stopTimeoutSeconds: 690, turnStartTimeoutSeconds: 30, maxBlocks: 3 };
const stopEntry = { type: 'command', bash: `${COMMAND} --event agentStop`, timeoutSec: 690 };
const promptEntry = { type: 'command', bash: `${COMMAND} --event userPromptSubmitted`, timeoutSec: 30 };
const userHook = { type: 'command', bash: './scripts/audit.sh', powershell: './scripts/audit.ps1', cwd: 'scripts', timeoutSec: 10 };

const pretty = (value: unknown, indent = '  ', eol = '\n'): string => `${JSON.stringify(value, null, indent)}\n`.replace(/\n/g, eol);

describe('the Copilot CLI installer', () => {
  it('writes a hooks file of its own under .github/hooks/, or the gitignored settings.local.json for a personal install', () => {
    expect(installer.file(false, '/home/me')).toBe(TEAM);
    expect(installer.file(true, '/home/me')).toBe(PERSONAL);
    expect(installer.privateFiles(true)).toEqual([PERSONAL]);
    expect(installer.privateFiles(false)).toEqual([]);
    expect(installer.enableStep).toMatch(/trusted folder/);
  });

  it('addresses a local install from COPILOT_PROJECT_DIR and names the harness and each event (Copilot payloads name none)', () => {
    expect(COMMAND).toBe('"$COPILOT_PROJECT_DIR"/node_modules/.bin/gate run --harness copilot');
    expect(installer.command(local('x y/node_modules/.bin/gate'))).toBe('"$COPILOT_PROJECT_DIR/x y/node_modules/.bin/gate" run --harness copilot');
    const { text } = installer.merge(undefined, HOOKS, TEAM);
    expect(JSON.parse(text)).toEqual({ version: 1, hooks: { agentStop: [stopEntry], userPromptSubmitted: [promptEntry] } });
    expect(installer.find(text, TEAM)).toEqual([
      { event: 'agentStop', command: stopEntry.bash, timeoutSeconds: 690 },
      { event: 'userPromptSubmitted', command: promptEntry.bash, timeoutSeconds: 30 },
    ]);
  });

  it("recognises every form of its command later (global, npx, paths with quotes)", () => {
    const bins: HookBin[] = [local('a"b$c/node_modules/.bin/gate'), { mode: 'global', relativePath: undefined, program: 'gate' }, { mode: 'npx', relativePath: undefined, program: 'npx --yes stopgate@1.2.3' }];
    for (const bin of bins) {
      const { text } = installer.merge(undefined, { ...HOOKS, command: installer.command(bin) }, TEAM);
      expect(installer.find(text, TEAM)).toHaveLength(2);
      expect(installer.remove(text, TEAM)).toMatchObject({ empty: true });
    }
  });

  it("keeps other entries of the same event, is idempotent, and uninstall gives back the bytes from before", () => {
    const before = pretty({ version: 1, hooks: { agentStop: [userHook], sessionStart: [userHook] } }, '\t', '\r\n');
    const merged = installer.merge(before, HOOKS, TEAM);
    expect(JSON.parse(merged.text)).toEqual({ version: 1, hooks: { agentStop: [userHook, stopEntry], sessionStart: [userHook], userPromptSubmitted: [promptEntry] } });
    expect(installer.merge(merged.text, HOOKS, TEAM)).toEqual({ text: merged.text, changed: false });
    expect(installer.remove(merged.text, TEAM)).toMatchObject({ text: before, changed: true, empty: false });
  });

  it('counts a hooks file left with only its version as empty, so uninstall can delete what init created', () => {
    const { text } = installer.merge(undefined, HOOKS, TEAM);
    expect(installer.remove(text, TEAM)).toMatchObject({ text: '{\n  "version": 1\n}\n', empty: true });
  });

  it('adds a "hooks" key to the personal settings.local.json, next to the settings already there', () => {
    const before = pretty({ model: 'gpt-4.1' });
    const merged = installer.merge(before, HOOKS, PERSONAL);
    expect(JSON.parse(merged.text)).toEqual({ model: 'gpt-4.1', hooks: { agentStop: [stopEntry], userPromptSubmitted: [promptEntry] } });
    expect(installer.remove(merged.text, PERSONAL)).toMatchObject({ text: before, empty: false });
    expect(JSON.parse(installer.merge(undefined, HOOKS, PERSONAL).text)).toEqual({ hooks: { agentStop: [stopEntry], userPromptSubmitted: [promptEntry] } });
  });

  it('refuses invalid JSON, naming file, line and column', () => {
    expect(() => installer.merge('{\n  "version": 1,\n}\n', HOOKS, TEAM)).toThrow(SettingsError);
    expect(() => installer.merge('{\n  "version": 1,\n}\n', HOOKS, TEAM)).toThrow(/^\.github\/hooks\/gate\.json, line 2, column 15: not valid JSON: a trailing comma/);
  });
});

describe("Copilot CLI's payloads (measured on 1.0.102)", () => {
  const copilot = ADAPTERS.copilot;
  const report = 'gate: 1 of 2 checks failed (test); stop refused, block 1 of 3.\n\n## test: failed (exit 1)\n';

  it('reads its own agentStop and userPromptSubmitted payloads, which name no event, from the --event in the command', () => {
    const stop = { sessionId: 's-3', timestamp: 1796016746075, cwd: '/repo', transcriptPath: '/e.jsonl', stopReason: 'end_turn', stop_hook_active: false };
    expect(parsePayload(JSON.stringify(stop), copilot, undefined).valid).toBe(false);
    expect(parsePayload(JSON.stringify(stop), copilot, 'agentStop')).toMatchObject({ valid: true, event: 'stop', sessionId: 's-3', dirs: ['/repo'], firedAt: 1796016746075 });
    const prompt = { sessionId: 's-3', timestamp: 1796016743885, cwd: '/repo', prompt: 'make b' };
    expect(parsePayload(JSON.stringify(prompt), copilot, 'userPromptSubmitted').event).toBe('turn-start');
    // After a block Copilot sends the reason as the next prompt, and fires userPromptSubmitted with it.
    expect(parsePayload(JSON.stringify({ ...prompt, prompt: report }), copilot, 'userPromptSubmitted').event).toBe('other');
    expect(copilot.protocol).toBe('decision');
  });

  it("takes a Claude-format entry's stop as Copilot's (stop_reason), to answer it with JSON; both copies of one stop share session id and instant", () => {
    const claude = { hook_event_name: 'Stop', session_id: 's-3', timestamp: '2026-11-30T05:32:26.075Z', cwd: '/repo', transcript_path: '/e.jsonl', stop_reason: 'end_turn', stop_hook_active: false };
    const native = { sessionId: 's-3', timestamp: Date.parse('2026-11-30T05:32:26.075Z'), cwd: '/repo', stopReason: 'end_turn', stop_hook_active: false };
    const viaClaude = parsePayload(JSON.stringify(claude), ADAPTERS.claude, undefined);
    const viaNative = parsePayload(JSON.stringify(native), copilot, 'agentStop');
    expect(viaClaude).toMatchObject({ event: 'stop', viaCopilot: true });
    expect(viaClaude.sessionId).toBe(viaNative.sessionId);
    expect(viaClaude.firedAt).toBe(viaNative.firedAt);
    const prompt = { hook_event_name: 'UserPromptSubmit', session_id: 's-3', timestamp: '2026-11-30T05:32:28.114Z', cwd: '/repo', prompt: report };
    expect(parsePayload(JSON.stringify(prompt), ADAPTERS.claude, undefined).event).toBe('other');
  });
});
