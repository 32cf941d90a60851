import { describe, expect, it } from 'vitest';
import { fitsStopContext, STOP_CONTEXT_MAX, stopContextEvent } from '../../src/harness/claude-stop-context.js';

// AI_AGENT as Claude Code sets it for a hook (measured on 2.1.162, 2.1.163 and 2.1.332).
const hookOf = (version: string): NodeJS.ProcessEnv => ({ AI_AGENT: `claude-code_${version.replaceAll('.', '-')}_harness` });

describe('stopContextEvent', () => {
  it('answers with the event that ran, from Claude Code 2.1.163 on', () => {
    expect(stopContextEvent(hookOf('2.1.163'), 'stop')).toBe('Stop');
    expect(stopContextEvent(hookOf('2.1.332'), 'subagent-stop')).toBe('SubagentStop');
    expect(stopContextEvent(hookOf('2.2.0'), 'stop')).toBe('Stop');
    expect(stopContextEvent(hookOf('3.0.1'), 'stop')).toBe('Stop');
  });

  it('keeps exit 2 before 2.1.163, where that answer lets the stop through', () => {
    expect(stopContextEvent(hookOf('2.1.162'), 'stop')).toBeUndefined();
    expect(stopContextEvent(hookOf('2.0.999'), 'stop')).toBeUndefined();
    expect(stopContextEvent(hookOf('1.9.400'), 'stop')).toBeUndefined();
  });

  it('keeps exit 2 when the version is not Claude Code\'s own, for a hook', () => {
    expect(stopContextEvent({}, 'stop')).toBeUndefined();
    // a process started by Claude Code's Bash tool (a host run from there inherits it)
    expect(stopContextEvent({ AI_AGENT: 'claude-code_2-1-332_agent' }, 'stop')).toBeUndefined();
    expect(stopContextEvent({ AI_AGENT: 'cursor_1-0-0_harness' }, 'stop')).toBeUndefined();
    expect(stopContextEvent({ AI_AGENT: 'claude-code_2-1_harness' }, 'stop')).toBeUndefined();
  });

  it('is only for the stop events', () => {
    expect(stopContextEvent(hookOf('2.1.332'), 'turn-start')).toBeUndefined();
    expect(stopContextEvent(hookOf('2.1.332'), 'post-edit')).toBeUndefined();
  });
});

describe('fitsStopContext', () => {
  it('counts each line break twice, as Claude Code does before it spills to a file', () => {
    expect(fitsStopContext('x'.repeat(STOP_CONTEXT_MAX))).toBe(true);
    expect(fitsStopContext('x'.repeat(STOP_CONTEXT_MAX + 1))).toBe(false);
    expect(fitsStopContext('x\n'.repeat(STOP_CONTEXT_MAX / 3))).toBe(true);
    expect(fitsStopContext(`${'x\n'.repeat(STOP_CONTEXT_MAX / 3)}x`)).toBe(false);
  });
});
