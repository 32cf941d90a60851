import { describe, expect, it } from 'vitest';
import { BoundedCapture } from '../../src/runner/bounded-capture.js';
import { isOutputId, outputId } from '../../src/verdict/output-id.js';

// A gate whose output names no failure is known by its output (issue 37 point 5): the same failure
// must give the same id run after run, and another failure another id.
describe('outputId', () => {
  it('leaves out what changes between runs of the same failure', () => {
    const first = outputId('\u001b[31mservice check failed\u001b[0m after 1.234s at 2026-12-04T10:00:01Z (12:00:01), handle 0x7ffdc0a1b2c3\n');
    const second = outputId('service check failed after 0.98s at 2026-12-05T11:22:33Z (13:14:15), handle 0x55aa00112233  \r\n');
    expect(first).toBe(second);
    expect(isOutputId(first ?? '')).toBe(true);
  });

  it('another message is another failure', () => {
    expect(outputId('service check failed: database unreachable\n')).not.toBe(outputId('service check failed: migrations missing\n'));
  });

  it('an output of nothing has no identity', () => {
    expect(outputId('')).toBeUndefined();
    expect(outputId('  \n\u001b[0m\n')).toBeUndefined();
  });

  it('the same flood, captured with its middle left out as the pipe happened to split it, gives one id', () => {
    const flood = Buffer.from(`${'y'.repeat(3 * 1024 * 1024)}\nFAIL at the end\n`);
    const captured = (chunk: number) => {
      const capture = new BoundedCapture(1024 * 1024);
      for (let at = 0; at < flood.length; at += chunk) capture.push(flood.subarray(at, at + chunk));
      return capture.text();
    };
    const ids = [65_536, 100_000, 12_345, 1_000_003].map((chunk) => outputId(captured(chunk)));
    expect(new Set(ids).size).toBe(1);
    expect(captured(65_536)).not.toBe(captured(100_000));
  });
});
