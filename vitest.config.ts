import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Tiers: unit (pure modules), integration (real git repos and real tools), e2e (the built bin with a
// payload on stdin), claude (the real Claude Code CLI against a mock model), harness (the other
// agents' real CLIs against mock models).
//
// Every tier shares one pool of workers, so the real-CLI files run beside the others rather than in
// a queue after them. A test file spends much of its time waiting on the processes it started (git,
// the bin, an agent CLI, a mock model's next request), so one worker more than the machine has cores
// keeps the cores busy: on 2 cores, 3 workers ran the e2e tier in 184 s against 375 s with vitest's
// default of 1 (docs/testing.md). GATE_TEST_WORKERS overrides it (1 runs the files one at a time).
const workers = Number(process.env['GATE_TEST_WORKERS']) || availableParallelism() + 1;
// GATE_TEST_REPORT=<file> also writes vitest's JSON report there: .ci/run prints the slowest files
// from it (scripts/test-timings.mjs).
const report = process.env['GATE_TEST_REPORT'];

export default defineConfig({
  test: {
    maxWorkers: workers,
    ...(report ? { reporters: ['default', ['json', { outputFile: report }]] } : {}),
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], testTimeout: 10_000 } },
      { test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } },
      { test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 } },
      {
        test: {
          name: 'claude',
          include: ['tests/claude/**/*.test.ts'],
          globalSetup: ['tests/claude/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        // The other harnesses' real CLIs, one folder each (tests/harness/<name>/), installed pinned into .cache/.
        test: {
          name: 'harness',
          include: ['tests/harness/**/*.test.ts'],
          // The same packed-and-installed template project as the claude tier, made once per run.
          globalSetup: ['tests/claude/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
