import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { judgeDelivery, PROBE_LINES } from '../../src/doctor/judge-delivery.js';
import { ADAPTERS } from '../../src/harness/adapters.js';
import { installer } from '../../src/harness/install/qoder.js';
import type { HookBin, InstallHooks } from '../../src/harness/install/installer.js';
import { hookOutput } from '../../src/hook/hook-output.js';
import { parsePayload } from '../../src/hook/parse-payload.js';

const FILE = '.qoder/settings.json';
const local = (relativePath: string): HookBin => ({ mode: 'local', relativePath, program: undefined });
const COMMAND = installer.command(local('node_modules/.bin/gate'));
const HOOKS: InstallHooks = { command: COMMAND, stopTimeoutSeconds: 690, turnStartTimeoutSeconds: 30, maxBlocks: 3 };
const OTHER = { permissions: { allow: ['Bash(npm test)'] }, model: 'auto' };
const pretty = (value: unknown, indent = '  ', eol = '\n'): string => `${JSON.stringify(value, null, indent)}\n`.replace(/\n/g, eol);

describe('the Qoder CLI installer', () => {
  it('writes .qoder/settings.json, or the uncommitted .qoder/settings.local.json for a personal install', () => {
    expect(installer.file(false, '/home/me')).toBe(FILE);
    expect(installer.file(true, '/home/me')).toBe('.qoder/settings.local.json');
    expect(installer.privateFiles(true)).toEqual(['.qoder/settings.local.json']);
    expect(installer.privateFiles(false)).toEqual([]);
  });

  it('addresses a local install from QODER_PROJECT_DIR (Qoder runs hooks under bash -c with it set) and names the harness', () => {
    expect(COMMAND).toBe('"$QODER_PROJECT_DIR"/node_modules/.bin/gate run --harness qoder');
    expect(installer.command(local('x y/node_modules/.bin/gate'))).toBe('"$QODER_PROJECT_DIR/x y/node_modules/.bin/gate" run --harness qoder');
    expect(installer.command({ mode: 'npx', relativePath: undefined, program: 'npx --yes stopgate@1.2.3' })).toBe('npx --yes stopgate@1.2.3 run --harness qoder');
  });

  it('adds Stop and UserPromptSubmit groups with timeouts in seconds, keeping every other setting; idempotent; uninstall gives the bytes back', () => {
    const { text, changed } = installer.merge(pretty(OTHER), HOOKS, FILE);
    expect(changed).toBe(true);
    expect(JSON.parse(text)).toEqual({
      ...OTHER,
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: COMMAND, timeout: 690 }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: COMMAND, timeout: 30 }] }],
      },
    });
    expect(installer.find(text, FILE)).toEqual([
      { event: 'Stop', command: COMMAND, timeoutSeconds: 690 },
      { event: 'UserPromptSubmit', command: COMMAND, timeoutSeconds: 30 },
    ]);
    expect(installer.merge(text, HOOKS, FILE)).toEqual({ text, changed: false });
    const crlf = pretty(OTHER, '\t', '\r\n');
    expect(installer.remove(installer.merge(crlf, HOOKS, FILE).text, FILE)).toMatchObject({ text: crlf, changed: true, empty: false });
  });
});

// The payload as qodercli 1.1.52's hook runner builds it (createCoreBaseInput + fireStopEventWithContext).
describe("Qoder's payloads (read in qodercli 1.1.52)", () => {
  const base = { session_id: 'c0ffee00-1111-2222-3333-444455556666', transcript_path: '/home/me/.qoder/projects/x/c0ffee.jsonl', cwd: '/repo' };
  const parse = (payload: object) => parsePayload(JSON.stringify(payload), ADAPTERS.qoder, undefined);

  it('reads the Stop payload and the turn start', () => {
    expect(parse({ ...base, hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'Done.' })).toMatchObject({ valid: true, event: 'stop', sessionId: base.session_id });
    expect(parse({ ...base, hook_event_name: 'UserPromptSubmit', prompt: 'fix it' }).event).toBe('turn-start');
    expect(ADAPTERS.qoder.projectEnv).toEqual(['QODER_PROJECT_DIR', 'CLAUDE_PROJECT_DIR']);
  });
});

describe('the Qoder block', () => {
  const report = `gate: 1 of 1 checks failed (delivery-probe); stop refused, block 1 of 3.\n${PROBE_LINES.join('\n')}\n`;

  it('is exit 2 with the report on stderr and nothing on stdout (Qoder reads stdout only on exit 0), and passes the delivery probe', () => {
    const chunks: [Buffer[], Buffer[]] = [[], []];
    const streams = [new PassThrough(), new PassThrough()] as const;
    for (const [i, stream] of streams.entries()) stream.on('data', (chunk: Buffer) => chunks[i]?.push(chunk));
    const code = hookOutput(ADAPTERS.qoder.protocol, streams[0], streams[1], ADAPTERS.qoder.blockStdout).block(report, 'gate: refused the stop');
    const [stdout, stderr] = chunks.map((parts) => Buffer.concat(parts).toString('utf8')) as [string, string];
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: report });
    expect(judgeDelivery(ADAPTERS.qoder, COMMAND, { status: 2, signal: null, stdout, stderr }).level).toBe('ok');
    expect(judgeDelivery(ADAPTERS.qoder, COMMAND, { status: 1, signal: null, stdout: '', stderr: report }).level).toBe('problem');
  });

  it('keeps a report within 60,000 UTF-8 bytes: Qoder decodes each pipe read on its own', () => {
    expect(ADAPTERS.qoder.reportBytes).toBe(60_000);
  });
});
