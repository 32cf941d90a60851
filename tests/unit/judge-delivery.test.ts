import { describe, expect, it } from 'vitest';
import { judgeDelivery, PROBE_LINES, type ProbeRun } from '../../src/doctor/judge-delivery.js';
import { ADAPTERS } from '../../src/harness/adapters.js';

const report = `gate: 1 of 1 checks failed (delivery-probe); stop refused, block 1 of 3.\n${PROBE_LINES.join('\n')}\n`;
const run = (overrides: Partial<ProbeRun>): ProbeRun => ({ status: 0, signal: null, stdout: '', stderr: '', ...overrides });
const verdict = (harness: keyof typeof ADAPTERS, overrides: Partial<ProbeRun>) => judgeDelivery(ADAPTERS[harness], 'gate run', run(overrides));

describe('judgeDelivery', () => {
  it('takes exit 2 with the report on stderr and a systemMessage on stdout as a Claude Code block', () => {
    expect(verdict('claude', { status: 2, stderr: report, stdout: '{"systemMessage":"gate: refused"}\n' }).level).toBe('ok');
  });

  it('says Claude Code would drop exit 2 with empty (or blank) stdout and "no such file" in the report', () => {
    for (const stdout of ['', ' \n']) {
      expect(verdict('claude', { status: 2, stderr: report, stdout })).toEqual({ level: 'problem', message: expect.stringMatching(/takes that for a missing hook script and drops the block/) });
    }
  });

  it('accepts exit 2 with empty stdout where the harness has no such guess (Codex)', () => {
    expect(verdict('codex', { status: 2, stderr: report }).level).toBe('ok');
  });

  it('names exit 127, a signal, a timeout, the wrong exit status and a report without the failure', () => {
    expect(verdict('claude', { status: 127 }).message).toMatch(/not found \(exit 127\): claude treats that as "allow"/);
    expect(verdict('codex', { status: null, signal: 'SIGKILL' }).message).toMatch(/killed by SIGKILL/);
    expect(verdict('qwen', { error: 'no answer within 60 s' }).message).toMatch(/no answer within 60 s/);
    expect(verdict('qwen', { status: 0, stderr: report }).message).toMatch(/exit 0, not 2: the stop would be allowed/);
    expect(verdict('factory', { status: 2, stderr: 'gate: something else' }).message).toMatch(/lacks the failure: gate: something else/);
  });

  it('wants exactly one JSON object with decision "block" and the report as reason (Gemini, Copilot)', () => {
    const json = JSON.stringify({ decision: 'block', reason: report });
    expect(verdict('gemini', { stdout: `${json}\n` }).level).toBe('ok');
    expect(verdict('copilot', { stdout: `log line\n${json}\n` }).message).toMatch(/not exactly one JSON object, so copilot fails open/);
    expect(verdict('gemini', { stdout: JSON.stringify({ decision: 'approve', reason: report }) }).message).toMatch(/no "decision": "block"/);
    expect(verdict('gemini', { stdout: JSON.stringify({ decision: 'block', reason: 'gate: cut' }) }).message).toMatch(/"reason" lacks the failure/);
  });

  it('wants the report as followup_message for Cursor', () => {
    expect(verdict('cursor', { stdout: JSON.stringify({ followup_message: report }) }).level).toBe('ok');
    expect(verdict('cursor', { stdout: JSON.stringify({ continue: true }) }).message).toMatch(/"followup_message" lacks the failure/);
  });
});
