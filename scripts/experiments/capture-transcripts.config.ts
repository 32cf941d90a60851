import { defineConfig } from 'vitest/config';

// Runs scripts/experiments/capture-transcripts.test.ts: real agent CLIs against the mock models, their
// transcripts copied into tests/fixtures/transcripts/. Not part of `npm test`.
// npx vitest run --config scripts/experiments/capture-transcripts.config.ts [-t claude]
export default defineConfig({
  test: {
    include: ['scripts/experiments/capture-transcripts.test.ts'],
    globalSetup: ['tests/claude/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
