import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { asciiJson, hookOutput } from '../../src/hook/hook-output.js';

const REPORT = "gate: 1 of 1 checks failed (test); stop refused, block 1 of 3.\nError: ENOENT: no such file or directory, open 'a.json'\n问候 🚀 — “quotes”\n";

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('asciiJson', () => {
  it('escapes everything outside ASCII, so no read boundary can split a character, and parses back to the same text', () => {
    const text = asciiJson({ reason: REPORT });
    expect([...Buffer.from(text)].every((byte) => byte < 0x80)).toBe(true);
    expect(JSON.parse(text)).toEqual({ reason: REPORT });
  });
});

describe('asciiJson and lone surrogates', () => {
  it('writes half an emoji as U+FFFD, never as a lone \\ud83d that a strict parser rejects', () => {
    const text = asciiJson({ reason: `cut here: ${'🚀'.slice(0, 1)} and here: ${'🚀'.slice(1)}` });
    expect(text).not.toMatch(/\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i);
    expect(JSON.parse(text)).toEqual({ reason: 'cut here: \ufffd and here: \ufffd' });
  });
});

describe('hookOutput', () => {
  it('blocks Claude Code with exit 2, the report verbatim on stderr and a systemMessage on stdout', () => {
    const [stdout, stderr] = [capture(), capture()];
    const code = hookOutput('exit2', stdout.stream, stderr.stream, 'system-message').block(REPORT, 'gate: refused the stop (block 1 of 3): test failed; the agent has the report.');
    expect(code).toBe(2);
    expect(stderr.text()).toBe(REPORT);
    expect(JSON.parse(stdout.text())).toEqual({ systemMessage: 'gate: refused the stop (block 1 of 3): test failed; the agent has the report.' });
  });

  it('blocks Claude Code >= 2.1.163 with exit 0 and the report as the event\'s additionalContext, the note in systemMessage', () => {
    for (const event of ['Stop', 'SubagentStop'] as const) {
      const [stdout, stderr] = [capture(), capture()];
      const code = hookOutput('exit2', stdout.stream, stderr.stream, 'system-message', event).block(REPORT, 'gate: refused the stop (block 1 of 3): test failed; the agent has the report.');
      expect(code).toBe(0);
      expect(stderr.text()).toBe('');
      expect(stdout.text().split('\n')).toHaveLength(2);
      expect(JSON.parse(stdout.text())).toEqual({
        systemMessage: 'gate: refused the stop (block 1 of 3): test failed; the agent has the report.',
        hookSpecificOutput: { hookEventName: event, additionalContext: REPORT },
      });
    }
  });

  it('blocks Claude Code >= 2.1.163 with exit 2 when the report would reach the model only as a file path', () => {
    const [stdout, stderr] = [capture(), capture()];
    const long = `${REPORT}${'line of output\n'.repeat(700)}`;
    expect(hookOutput('exit2', stdout.stream, stderr.stream, 'system-message', 'Stop').block(long, 'told')).toBe(2);
    expect(stderr.text()).toBe(long);
    expect(JSON.parse(stdout.text())).toEqual({ systemMessage: 'told' });
  });

  it('leaves stdout empty on an exit-2 block where the harness reads none (Codex, Qwen, Factory)', () => {
    const [stdout, stderr] = [capture(), capture()];
    expect(hookOutput('exit2', stdout.stream, stderr.stream).block(REPORT, 'told')).toBe(2);
    expect(stdout.text()).toBe('');
    expect(stderr.text()).toBe(REPORT);
  });

  it('blocks with one ASCII JSON line holding the report where JSON is the channel', () => {
    const [stdout, stderr] = [capture(), capture()];
    expect(hookOutput('decision', stdout.stream, stderr.stream).block(REPORT, 'told')).toBe(0);
    expect(stdout.text().split('\n')).toHaveLength(2);
    expect(JSON.parse(stdout.text())).toEqual({ decision: 'block', reason: REPORT });
    expect(stderr.text()).toBe('');
  });
});
