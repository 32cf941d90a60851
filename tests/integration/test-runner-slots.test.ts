import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedGate } from '../../src/config/load-config.js';
import { machineCores, testRunnersAtOnce } from '../../src/plan/machine-cores.js';
import { runGates } from '../../src/runner/run-gates.js';
import { trackOverlap } from '../../src/transient/overlap.js';

// Issue 37, point 6: the default concurrency fits the machine. Test runners start their own workers,
// so without a configured concurrency at most half the cores' worth of them run at once.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-slots-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// A test runner by its filter (a command of its own read by vitest's filter), or a plain command.
function gate(name: string, testRunner: boolean, timeoutSeconds = 30): ResolvedGate {
  const run = ['node', '-e', 'setTimeout(() => {}, 400)'];
  return { name, shortName: name, configDir: dir, preset: undefined, run, shell: false, on: ['**/*'], ignore: [], timeoutSeconds, filter: testRunner ? 'vitest' : 'generic', tier: undefined, fastOff: false, cwd: dir, env: {}, retries: 0 };
}

async function schedule(gates: ResolvedGate[], options: { testRunners?: number; deadline?: number }) {
  const spans = new Map<string, { start: number; end: number }>();
  const overlap = trackOverlap();
  await runGates({
    selections: gates.map((g) => ({ gate: g, run: true, reason: '', files: [], partial: true })),
    concurrency: 2,
    projectDir: dir,
    logDir: join(dir, 'logs'),
    cacheDir: join(dir, 'cache'),
    env: { PATH: process.env['PATH'] ?? '' },
    ...options,
    onStart: (name) => {
      overlap.start(name);
      spans.set(name, { start: Date.now(), end: Number.POSITIVE_INFINITY });
    },
    onDone: (result) => {
      overlap.done(result.name);
      const span = spans.get(result.name);
      if (span) span.end = Date.now();
    },
  });
  const together = (a: string, b: string) => {
    const x = spans.get(a);
    const y = spans.get(b);
    return x !== undefined && y !== undefined && x.start < y.end && y.start < x.end;
  };
  return { together, beside: overlap.beside };
}

describe('test runners at once', () => {
  it('runs one test runner at a time beside the other gates, in config order otherwise', async () => {
    const { together, beside } = await schedule([gate('unit', true), gate('e2e', true), gate('lint', false)], { testRunners: 1 });
    expect(together('unit', 'e2e')).toBe(false);
    expect(together('unit', 'lint')).toBe(true);
    expect(beside.has('unit') && beside.has('lint')).toBe(true);
  });

  it('starts a waiting test runner beside another when waiting longer would cut its timeout', async () => {
    // Each gate's 30 s timeout ends past a deadline 29 s away: each must start now to keep all of it.
    const { together } = await schedule([gate('unit', true), gate('e2e', true)], { testRunners: 1, deadline: Date.now() + 29_000 });
    expect(together('unit', 'e2e')).toBe(true);
  });

  it('runs them side by side without a limit', async () => {
    const { together, beside } = await schedule([gate('unit', true), gate('e2e', true)], {});
    expect(together('unit', 'e2e')).toBe(true);
    expect([...beside].sort()).toEqual(['e2e', 'unit']);
  });
});

describe('the machine’s cores', () => {
  it('are the CPUs gate may run on, no more than a cgroup quota, and half of them run test runners', () => {
    const cpus = machineCores(() => undefined);
    expect(cpus).toBeGreaterThanOrEqual(1);
    expect(machineCores(() => 0.5)).toBe(1);
    expect(machineCores(() => 1.5)).toBe(Math.min(cpus, 2));
    expect(machineCores(() => 1000)).toBe(cpus);
    expect([1, 2, 3, 4, 8].map(testRunnersAtOnce)).toEqual([1, 1, 1, 2, 4]);
  });
});
