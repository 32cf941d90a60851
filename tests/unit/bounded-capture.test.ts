import { describe, expect, it } from 'vitest';
import { BoundedCapture } from '../../src/runner/bounded-capture.js';

describe('BoundedCapture', () => {
  it('keeps all of a small output', () => {
    const capture = new BoundedCapture(100);
    capture.push(Buffer.from('hello '));
    capture.push(Buffer.from('world'));
    expect(capture.text()).toBe('hello world');
  });

  it('keeps the head and the tail of a huge output and counts the middle', () => {
    const capture = new BoundedCapture(1000);
    capture.push(Buffer.from('FIRST\n'));
    for (let i = 0; i < 10_000; i++) capture.push(Buffer.from(`line ${i}\n`));
    capture.push(Buffer.from('LAST\n'));
    const text = capture.text();
    expect(text.startsWith('FIRST\n')).toBe(true);
    expect(text.endsWith('LAST\n')).toBe(true);
    expect(text).toMatch(/\[gate: \d+ bytes of output omitted here\]/);
    expect(text.length).toBeLessThan(2200);
  });
});
