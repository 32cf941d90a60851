// gate, installed from its npm tarball with `npx gate init --yes`, as the Stop hook of the real Claude
// Code CLI. The mock model plays the agent; what it was sent is read back from the mock. The
// block-and-fix and maxBlocks turns also end with `gate verdict`, as CI reads it after `claude -p`
// (verdict.test.ts has the run before any install): one turn for both.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION } from './claude-cli.mjs';
import { SUM_BROKEN, SUM_OK, SUM_TEST_ASSERTION_LINE, writeFileCommand } from './gate-project.mjs';
import { bash, CONTEXT, contextIn, edit, say, useScenarios } from './scenario.js';

const start = useScenarios();
const BUDGET = 6000;
/** Red in a different way each time, so every stop has something new to check. */
const stillBroken = (k: number): string => SUM_BROKEN.replace('a - b', `a - b - ${k}`);

describe(`gate as the Stop hook of Claude Code ${CLAUDE_CODE_VERSION} (team install)`, () => {
  it('ends a turn that changed nothing after one model request, and adds nothing to the prompt', async () => {
    const scenario = await start();
    expect(scenario.hookCommand()).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run');
    const run = await scenario.run('What does this project do?', [say('It adds numbers.')]);

    expect(run.main).toHaveLength(1);
    expect(run.blocked).toEqual([]);
    expect(run.json?.result).toBe('It adds numbers.');
    expect(scenario.mock.unscripted()).toEqual([]);
    // The UserPromptSubmit hook ran (it recorded the baseline) and printed nothing the model would see.
    expect(run.sent[0]).toMatch(/What does this project do\?$/);
    expect(run.sent[0]).not.toMatch(/hook|gate:/i);
    expect(scenario.sessionFiles()).toEqual([`${run.json?.session_id}.json`]);
    expect(scenario.testGateRan()).toBe(false);
  });

  it('sends the model the report when it breaks a test, and lets the turn end once it fixes it; gate verdict then exits 0', async () => {
    const scenario = await start();
    const run = await scenario.run('Refactor sum.', [
      edit('src/sum.ts', SUM_BROKEN),
      say('Refactored.'),
      edit('src/sum.ts', SUM_OK),
      say('Fixed.'),
    ]);

    // break, stop (blocked), fix, stop (allowed): four model requests, the third one carries the report.
    expect(run.main).toHaveLength(4);
    expect(run.blocked).toEqual([2]);
    expect(run.json?.result).toBe('Fixed.');
    expect(scenario.mock.unscripted()).toEqual([]);
    expect(run.sent[1]).toBe('(Bash completed with no output)');

    const sent = run.sent[2] ?? '';
    const report = contextIn(sent) ?? '';
    expect(report, sent.slice(0, 400)).not.toBe('');
    expect(report).toMatch(/^gate: 1 of 2 checks failed \(test\); stop refused, block 1 of 3\.\n/);
    expect(report).toContain('## test: failed (exit 1)');
    expect(report).toContain('sum > adds two numbers');
    expect(report).toContain('expected -1 to be 3');
    expect(report).toMatch(/^- 3$/m);
    expect(report).toMatch(/^\+ -1$/m);
    expect(report).toContain(`src/sum.test.ts:${SUM_TEST_ASSERTION_LINE}:`);
    expect(report).toContain('full log: .git/gate/logs/test.log');
    expect(report).toMatch(/Do not skip, delete or weaken tests or checks unless the user asked for it\.\n$/);
    expect(report).not.toContain('\x1b');
    expect(report.length).toBeLessThanOrEqual(BUDGET);
    // One copy: additionalContext, not the `decision` JSON that Claude Code would deliver twice.
    expect(sent.split(CONTEXT)).toHaveLength(2);
    expect(sent.split('expected -1 to be 3')).toHaveLength(2);

    expect(run.sent[3]).toBe('(Bash completed with no output)');
    expect(scenario.project.read('src/sum.ts')).toBe(SUM_OK);
    expect(scenario.project.status()).toEqual([]);

    // gate verdict exits 0: the agent fixed what it broke.
    const human = scenario.project.gate('verdict');
    expect(human.code, human.stdout + human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^pass: session ${run.json?.session_id}, last stop \\S+ \\(claude\\): `));
    const verdict = JSON.parse(scenario.project.gate('verdict', '--json').stdout);
    expect(verdict).toMatchObject({ session: run.json?.session_id, verdict: 'pass' });
    // The block's report is still there: the last one the agent was shown in this session.
    expect(existsSync(verdict.report)).toBe(true);
  });

  it('blocks exactly maxBlocks (3) times while the agent keeps editing and stays red, then lets the turn end and tells the human; gate verdict then exits 1 and names the failing gate and its report', async () => {
    const scenario = await start();
    const steps = [0, 1, 2, 3].flatMap((k) => [edit('src/sum.ts', stillBroken(k)), say(`Attempt ${k + 1}.`)]);
    const run = await scenario.run('Refactor sum.', steps, { outputFormat: 'stream-json' });

    // Four stops: three blocked (each one request with the feedback), the fourth let through.
    expect(run.main).toHaveLength(8);
    expect(run.blocked).toEqual([2, 4, 6]);
    expect(run.blocked.map((index) => /block (\d) of 3\./.exec(run.sent[index] ?? '')?.[1])).toEqual(['1', '2', '3']);
    expect(run.json?.result).toBe('Attempt 4.');
    expect(scenario.mock.unscripted()).toEqual([]);
    // The notice goes to the human only: a stream-json `system`/`informational` event, never a request.
    // Each block is told to the human in one line; the fourth stop says what is still red.
    expect(run.notices).toEqual([
      ...[1, 2, 3].map((block) => `Stop says: gate: refused the stop (block ${block} of 3): test failed; the agent has the report.`),
      expect.stringMatching(/^Stop says: gate: let the turn end after 3 blocked stops in a row; still failing: test\b/),
    ]);
    expect(run.sent.join('\n')).not.toContain('let the turn end');
    // The result object (all that --output-format json prints) carries no trace of it.
    expect(JSON.stringify(run.json)).not.toContain('let the turn end');
    // claude -p itself succeeds: three blocks, then gate lets the turn end.
    expect(run.exitCode).toBe(0);
    const session = run.json?.session_id ?? '';

    // gate verdict exits 1: the agent left the tests red past maxBlocks; --json names the failing gate and its report.
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

  it('does not block a docs-only edit', async () => {
    const scenario = await start();
    const run = await scenario.run('Document sum.', [
      bash(`${writeFileCommand('README.md', '# fixture\n\nAdds numbers with sum(a, b).\n')}\n${writeFileCommand('docs/guide.md', '# Guide\n\nsum(1, 2) is 3.\n')}`),
      say('Documented.'),
    ]);

    expect(run.main).toHaveLength(2);
    expect(run.blocked).toEqual([]);
    expect(run.json?.result).toBe('Documented.');
    expect(scenario.project.status()).toEqual([' M README.md', ' M docs/guide.md']);
    expect(scenario.testGateRan()).toBe(false);
  });

  it('blocks broken code that the agent committed', async () => {
    const scenario = await start();
    const run = await scenario.run('Refactor sum and commit.', [
      bash(`${writeFileCommand('src/sum.ts', SUM_BROKEN)}\ngit commit -qam 'Refactor sum'`),
      say('Committed.'),
      say('I will leave it for now.'),
    ], { outputFormat: 'stream-json' });

    expect(scenario.project.git('log', '-1', '--format=%s').trim()).toBe('Refactor sum');
    expect(scenario.project.status()).toEqual([]);
    expect(run.main).toHaveLength(3);
    expect(run.blocked).toEqual([2]);
    expect(run.sent[2]).toContain('expected -1 to be 3');
    // The agent changed nothing after the block: its next stop is let through, and the human told.
    expect(run.json?.result).toBe('I will leave it for now.');
    expect(run.notices).toEqual([
      'Stop says: gate: refused the stop (block 1 of 3): test failed; the agent has the report.',
      expect.stringMatching(/without changing anything since it was blocked/),
    ]);
  });

  it.each([
    ['committed', true],
    ['left uncommitted in the working tree', false],
  ])('does not block a question-only turn in a repo whose tests were already red (%s)', async (_how, commit) => {
    const scenario = await start();
    scenario.project.write('src/sum.ts', SUM_BROKEN);
    if (commit) scenario.project.commit('Break sum');
    const run = await scenario.run('What does sum do?', [say('It subtracts b from a, despite its name.')]);

    expect(run.main).toHaveLength(1);
    expect(run.blocked).toEqual([]);
    expect(scenario.mock.unscripted()).toEqual([]);
    // The baseline came from the UserPromptSubmit hook at the start of this turn.
    expect(scenario.sessionFiles()).toEqual([`${run.json?.session_id}.json`]);
    expect(scenario.testGateRan()).toBe(false);
  });
});
