import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { judgeDelivery, PROBE_LINES } from '../../src/doctor/judge-delivery.js';
import { ADAPTERS } from '../../src/harness/adapters.js';
import { installer } from '../../src/harness/install/auggie.js';
import type { HookBin, InstallHooks } from '../../src/harness/install/installer.js';
import { hookOutput } from '../../src/hook/hook-output.js';
import { parsePayload } from '../../src/hook/parse-payload.js';
import { SettingsError } from '../../src/harness/install/settings-merge.js';

const FILE = '.augment/settings.json';
const local = (relativePath: string): HookBin => ({ mode: 'local', relativePath, program: undefined });
const COMMAND = installer.command(local('node_modules/.bin/gate'));
const HOOKS: InstallHooks = { command: COMMAND, stopTimeoutSeconds: 690, turnStartTimeoutSeconds: 30, maxBlocks: 3 };
const gateEvents = { Stop: [{ hooks: [{ type: 'command', command: COMMAND, timeout: 690_000 }] }] };
const userHook = { type: 'command', command: '/etc/augment/hooks/audit.sh', timeout: 5000 };
/** Other things Auggie keeps in the same file (its `settings` and `mcp` commands write them). */
const OTHER = { model: 'sonnet4.5', toolPermissions: [{ toolName: 'launch-process', permission: { type: 'allow' } }] };

const pretty = (value: unknown, indent = '  ', eol = '\n'): string => `${JSON.stringify(value, null, indent)}\n`.replace(/\n/g, eol);

describe('the Auggie installer', () => {
  it('writes .augment/settings.json, or the uncommitted .augment/settings.local.json for a personal install', () => {
    expect(installer.file(false, '/home/me')).toBe(FILE);
    expect(installer.file(true, '/home/me')).toBe('.augment/settings.local.json');
    expect(installer.privateFiles(true)).toEqual(['.augment/settings.local.json']);
    expect(installer.privateFiles(false)).toEqual([]);
  });

  it('addresses a local install from AUGMENT_PROJECT_DIR (a `$` makes Auggie run the command under bash -c) and names the harness', () => {
    expect(COMMAND).toBe('"$AUGMENT_PROJECT_DIR"/node_modules/.bin/gate run --harness auggie');
    expect(installer.command(local('x y/node_modules/.bin/gate'))).toBe('"$AUGMENT_PROJECT_DIR/x y/node_modules/.bin/gate" run --harness auggie');
    expect(installer.command({ mode: 'global', relativePath: undefined, program: 'gate' })).toBe('gate run --harness auggie');
    expect(installer.command({ mode: 'npx', relativePath: undefined, program: 'npx --yes stopgate@1.2.3' })).toBe('npx --yes stopgate@1.2.3 run --harness auggie');
  });

  it('adds a Stop group with no matcher (Auggie warns about one there), the timeout in milliseconds, keeping every other setting', () => {
    const { text, changed } = installer.merge(pretty(OTHER), HOOKS, FILE);
    expect(changed).toBe(true);
    expect(JSON.parse(text)).toEqual({ ...OTHER, hooks: gateEvents });
    expect(installer.find(text, FILE)).toEqual([{ event: 'Stop', command: COMMAND, timeoutSeconds: 690 }]);
  });

  it('is idempotent, and uninstall gives back the bytes from before (CRLF and tabs kept)', () => {
    for (const before of [pretty(OTHER), pretty({ ...OTHER, hooks: { Stop: [{ hooks: [userHook] }] } }, '\t', '\r\n')]) {
      const first = installer.merge(before, HOOKS, FILE);
      expect(installer.merge(first.text, HOOKS, FILE)).toEqual({ text: first.text, changed: false });
      expect(first.text.includes('\r\n')).toBe(before.includes('\r\n'));
      expect(installer.remove(first.text, FILE)).toMatchObject({ text: before, changed: true, empty: false });
    }
    expect(installer.remove(installer.merge(undefined, HOOKS, FILE).text, FILE)).toMatchObject({ text: '{}\n', empty: true });
  });

  it('keeps a user Stop hook beside its own', () => {
    const { text } = installer.merge(pretty({ hooks: { Stop: [{ hooks: [userHook] }] } }), HOOKS, FILE);
    expect(JSON.parse(text).hooks.Stop).toEqual([{ hooks: [userHook] }, ...gateEvents.Stop]);
  });

  it('refuses a file that is not strict JSON (Auggie itself accepts trailing commas), naming file, line and column', () => {
    const trailing = '{\n  "model": "x",\n}\n';
    expect(() => installer.merge(trailing, HOOKS, FILE)).toThrow(SettingsError);
    expect(() => installer.merge(trailing, HOOKS, FILE)).toThrow(/^\.augment\/settings\.json, line 2, column 15: not valid JSON: a trailing comma .*strict JSON/);
  });
});

// Payloads as Auggie 0.36.0 wrote them on stdin (measured against a mock backend; docs/harness-auggie.md).
describe("Auggie's payloads (measured on 0.36.0)", () => {
  const auggie = ADAPTERS.auggie;
  const common = { conversation_id: '50015e2c-829b-45f7-aca6-d050fbcdeee7', workspace_roots: ['/repo'] };
  const parse = (payload: object) => parsePayload(JSON.stringify(payload), auggie, undefined);

  it('takes no turn start: Auggie fires PromptSubmit and SessionStart without waiting for them', () => {
    expect(parse({ ...common, hook_event_name: 'PromptSubmit', user_prompt: 'make the tests pass' }).event).toBe('other');
    expect(parse({ ...common, hook_event_name: 'SessionStart' }).event).toBe('other');
  });

  it('reads the Stop payload: conversation_id is the session, workspace_roots[0] the project (there is no cwd)', () => {
    const stop = parse({ ...common, hook_event_name: 'Stop', agent_stop_cause: 'end_turn', _exchange: { exchange: { request_message: 'hi', response_text: 'Done.' }, changedFiles: [] } });
    expect(stop).toMatchObject({ valid: true, event: 'stop', sessionId: common.conversation_id, dirs: ['/repo'], runningBackgroundTasks: 0 });
    expect(auggie.projectEnv).toEqual(['AUGMENT_PROJECT_DIR']);
  });
});

describe('the Auggie block', () => {
  const report = `gate: 1 of 1 checks failed (delivery-probe); stop refused, block 1 of 3.\n${PROBE_LINES.join('\n')}\n`;
  const toHuman = 'gate: refused the stop (block 1 of 3): test failed; the agent has the report.';

  function blocked(): { code: number; stdout: string; stderr: string } {
    const streams = [new PassThrough(), new PassThrough()] as const;
    const [out, err] = streams.map((stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      return () => Buffer.concat(chunks).toString('utf8');
    }) as [() => string, () => string];
    const code = hookOutput(ADAPTERS.auggie.protocol, streams[0], streams[1]).block(report, toHuman);
    return { code, stdout: out(), stderr: err() };
  }

  it('is exit 0 and one JSON object: the report in hookSpecificOutput (the only Stop block Auggie parses), and for the human in systemMessage', () => {
    const { code, stdout, stderr } = blocked();
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.endsWith('\n')).toBe(true);
    const answer = JSON.parse(stdout);
    expect(answer.hookSpecificOutput).toEqual({ hookEventName: 'Stop', decision: 'block', reason: report });
    // Auggie 0.36.0 shows systemMessage to the human and drops the block: the human needs the report itself.
    expect(answer.systemMessage.startsWith(`${toHuman}\ngate: Auggie 0.36.0 ends the turn even so`)).toBe(true);
    expect(answer.systemMessage.endsWith(report)).toBe(true);
  });

  it('never says continue:false, and allows with nothing on stdout', () => {
    expect(blocked().stdout).not.toMatch(/"continue"/);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    expect(hookOutput('stop-output', out, new PassThrough()).allow()).toBe(0);
    expect(Buffer.concat(chunks).toString('utf8')).toBe('');
  });

  it("passes doctor's delivery probe, which refuses a top-level decision (Auggie ignores it) and an exit-2 block", () => {
    const { stdout } = blocked();
    expect(judgeDelivery(ADAPTERS.auggie, COMMAND, { status: 0, signal: null, stdout, stderr: '' }).level).toBe('ok');
    const topLevel = JSON.stringify({ decision: 'block', reason: report });
    expect(judgeDelivery(ADAPTERS.auggie, COMMAND, { status: 0, signal: null, stdout: topLevel, stderr: '' }).message).toMatch(/no "hookSpecificOutput"/);
    expect(judgeDelivery(ADAPTERS.auggie, COMMAND, { status: 2, signal: null, stdout: '', stderr: report }).level).toBe('problem');
  });
});
