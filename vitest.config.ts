import { defineConfig } from 'vitest/config';

// Tiers: unit (pure modules), integration (real git repos and real tools), e2e (the built bin with a
// payload on stdin), claude (the real Claude Code CLI against a mock model), harness (the other
// agents' real CLIs against mock models).
export default defineConfig({
  test: {
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
          fileParallelism: false,
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
          fileParallelism: false,
        },
      },
    ],
  },
});
