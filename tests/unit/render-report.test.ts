import { describe, expect, it } from 'vitest';
import { CLOSING, fitLines, renderReport, shareBudget, type FailedGate } from '../../src/report/render-report.js';

function gate(name: string, lines: string[]): FailedGate {
  return { name, command: `npx ${name}`, outcome: 'failed (exit 1)', filtered: { lines, dropped: 0 }, log: `.git/gate/logs/${name}.log` };
}

describe('renderReport', () => {
  it('has a header, each failed gate with its command and exit status, and the closing line', () => {
    const report = renderReport({ failed: [gate('test', ['FAIL a > b', 'expected 1 to be 2'])], gateCount: 2, block: 1, maxBlocks: 3, budget: 6000 });
    expect(report).toBe(
      [
        'gate: 1 of 2 checks failed (test); stop refused, block 1 of 3.',
        '',
        '## test: failed (exit 1)',
        '$ npx test',
        'FAIL a > b',
        'expected 1 to be 2',
        '(full log: .git/gate/logs/test.log)',
        '',
        CLOSING,
        '',
      ].join('\n'),
    );
  });

  it('stays within the budget with huge output, keeping the first failures, a count, and the last line', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `FAIL test number ${i} expected ${i} to be ${i + 1}`);
    const lint = Array.from({ length: 500 }, (_, i) => `src/f${i}.ts:1:1 error no-unused-vars`);
    const report = renderReport({
      failed: [gate('test', [...many, 'Tests  5000 failed (5000)']), gate('lint', lint)],
      gateCount: 2,
      block: 2,
      maxBlocks: 3,
      budget: 6000,
    });
    expect(report.length).toBeLessThanOrEqual(6000);
    expect(report).toContain('FAIL test number 0 expected 0 to be 1');
    expect(report).toContain('src/f0.ts:1:1 error no-unused-vars');
    expect(report).toMatch(/… \d+ more lines; full log: \.git\/gate\/logs\/test\.log\nTests {2}5000 failed \(5000\)/);
    expect(report).toMatch(/… \d+ more lines; full log: \.git\/gate\/logs\/lint\.log/);
    expect(report.endsWith(`${CLOSING}\n`)).toBe(true);
  });

  it('is the same bytes for the same failures', () => {
    const input = { failed: [gate('test', ['x', 'y'])], gateCount: 1, block: 1, maxBlocks: 3, budget: 1000 };
    expect(renderReport(input)).toBe(renderReport(structuredClone(input)));
  });
});

describe('shareBudget', () => {
  it('gives small sections what they need and splits the rest evenly', () => {
    expect(shareBudget([100, 5000, 5000], 3100)).toEqual([100, 1500, 1500]);
    expect(shareBudget([10, 20], 1000)).toEqual([10, 20]);
  });
});

describe('fitLines', () => {
  it('returns everything when it fits', () => {
    expect(fitLines(['a', 'b'], 100)).toEqual(['a', 'b']);
  });
});
