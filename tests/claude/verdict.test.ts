// `gate verdict` after a headless `claude -p` run: what a CI pipeline reads once the agent is done
// (`claude -p "…" && npx gate verdict`, docs/ci-verdict.md).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION } from './claude-cli.mjs';
import { SUM_BROKEN, SUM_OK } from './gate-project.mjs';
import { edit, say, useScenarios } from './scenario.js';

const start = useScenarios();
/** Red in a different way each time, so every stop has something new to check. */
const stillBroken = (k: number): string => SUM_BROKEN.replace('a - b', `a - b - ${k}`);

describe(`gate verdict after a headless Claude Code ${CLAUDE_CODE_VERSION} run`, () => {
  it('exits 1 when the agent left the tests red past maxBlocks, and --json names the failing gate and its report', async () => {
    const scenario = await start();
    const steps = [0, 1, 2, 3].flatMap((k) => [edit('src/sum.ts', stillBroken(k)), say(`Attempt ${k + 1}.`)]);
    const run = await scenario.run('Refactor sum.', steps);
    // claude -p itself succeeds: three blocks, then gate lets the turn end.
    expect(run.exitCode).toBe(0);
    expect(run.blocked).toEqual([2, 4, 6]);
    const session = run.json?.session_id ?? '';

    const human = scenario.project.gate('verdict');
    expect(human.code, human.stderr).toBe(1);
    expect(human.stdout).toMatch(new RegExp(`^fail: session ${session}, last stop \\S+ \\(claude\\): let through after 3 blocks in a row, still red: test failed\\.\\ngates: test failed, typecheck (passed|cached); report: \\.git/gate/reports/${session}\\.txt\\n$`));

    const json = scenario.project.gate('verdict', '--json');
    expect(json.code).toBe(1);
    const verdict = JSON.parse(json.stdout);
    expect(verdict).toMatchObject({ session, harness: 'claude', verdict: 'fail', kind: 'escape', warnings: [] });
    expect(verdict.gates).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'test', status: 'failed' }), expect.objectContaining({ name: 'typecheck', status: expect.stringMatching(/^(passed|cached)$/) })]),
    );
    expect(existsSync(verdict.report)).toBe(true);
    const report = readFileSync(verdict.report, 'utf8');
    expect(report).toMatch(/^gate: let the turn end after 3 blocked stops in a row; still failing: test\./);
    // Below the notice: what the last stop itself found (the fourth edit: 1 - 2 - 3), not the
    // third block's report, which the model read last (1 - 2 - 2).
    // (The third block is a reminder of the first's report: the same test fails at the same line.)
    const lastFeedback = run.sent[6] ?? '';
    expect(lastFeedback).toContain('block 3 of 3');
    expect(lastFeedback).toContain('The same failures as at block 1');
    expect(report).toContain('gate: 1 of 2 checks failed');
    expect(report).toContain('expected -4 to be 3');
    expect(report).not.toContain('expected -3 to be 3');

    expect(scenario.project.gate('verdict', '--session', session).code).toBe(1);
  });

  it('exits 0 when the agent fixed what it broke', async () => {
    const scenario = await start();
    const run = await scenario.run('Refactor sum.', [edit('src/sum.ts', SUM_BROKEN), say('Refactored.'), edit('src/sum.ts', SUM_OK), say('Fixed.')]);
    expect(run.blocked).toEqual([2]);

    const human = scenario.project.gate('verdict');
    expect(human.code, human.stdout + human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^pass: session ${run.json?.session_id}, last stop \\S+ \\(claude\\): `));
    const verdict = JSON.parse(scenario.project.gate('verdict', '--json').stdout);
    expect(verdict).toMatchObject({ session: run.json?.session_id, verdict: 'pass' });
    // The block's report is still there: the last one the agent was shown in this session.
    expect(existsSync(verdict.report)).toBe(true);
  });

  it('exits 2 when the hook never decided a stop (a run before gate was installed)', async () => {
    const scenario = await start('none');
    await scenario.run('What does this project do?', [say('It adds numbers.')]);
    const result = scenario.project.gate('verdict');
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^none: no stop log/);
  });
});
