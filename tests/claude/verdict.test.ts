// `gate verdict` after a headless `claude -p` run: what a CI pipeline reads once the agent is done
// (`claude -p "…" && npx gate verdict`, docs/ci-verdict.md). Its exit 1 (red past maxBlocks) and
// exit 0 (fixed after a block) are read at the end of stop-gate.test.ts's turns that get there,
// which this file ran again turn for turn.
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION } from './claude-cli.mjs';
import { say, useScenarios } from './scenario.js';

const start = useScenarios();

describe(`gate verdict after a headless Claude Code ${CLAUDE_CODE_VERSION} run`, () => {
  it('exits 2 when the hook never decided a stop (a run before gate was installed)', async () => {
    const scenario = await start('none');
    await scenario.run('What does this project do?', [say('It adds numbers.')]);
    const result = scenario.project.gate('verdict');
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^none: no stop log/);
  });
});
