// gate, installed from its npm tarball with `npx gate init --harness codex --yes`, as the Stop hook
// of the real Codex CLI. The mock model plays the agent; what it was sent is read back from the mock.
import { describe, expect, it } from 'vitest';
import { SUM_BROKEN, SUM_OK, SUM_TEST_ASSERTION_LINE } from '../../claude/gate-project.mjs';
import { CODEX_VERSION } from './codex-cli.js';
import { allInputText, text } from './mock-responses.js';
import { edit, useScenarios, type AgentRun } from './scenario.js';

const start = useScenarios();
const BUDGET = 6000;
const LOCAL_COMMAND = '"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/node_modules/.bin/gate run --harness codex';
/** Red in a different way each time, so every stop has something new to check. */
const stillBroken = (k: number): string => SUM_BROKEN.replace('a - b', `a - b - ${k}`);

const stopStatuses = (run: AgentRun): string[] => run.hooks.filter((hook) => hook.event === 'Stop').map((hook) => hook.status);

/** `from`: where Codex was started, relative to the repository; the report's paths are relative to it. */
function expectSumReport(report: string, block: number, from = ''): void {
  expect(report).toMatch(new RegExp(`^gate: 1 of 2 checks failed \\(test\\); stop refused, block ${block} of 3\\.\\n`));
  expect(report).toContain('## test: failed (exit 1)');
  expect(report).toContain('sum > adds two numbers');
  expect(report).toContain('expected -1 to be 3');
  expect(report).toMatch(/^- 3$/m);
  expect(report).toMatch(/^\+ -1$/m);
  expect(report).toContain(`src/sum.test.ts:${SUM_TEST_ASSERTION_LINE}:`);
  expect(report).toContain(`full log: ${from}.git/gate/logs/test.log`);
  // Codex trims the trailing newline of the hook's stderr.
  expect(report).toMatch(/Do not skip, delete or weaken tests or checks unless the user asked for it\.$/);
  expect(report).not.toContain('\x1b');
  expect(report.length).toBeLessThanOrEqual(BUDGET);
}

describe(`gate as the Stop hook of Codex CLI ${CODEX_VERSION} (team install)`, () => {
  it('ends a turn that changed nothing after one model request, and adds nothing to the prompt', async () => {
    const scenario = await start();
    expect(JSON.parse(scenario.hooksFile())).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: LOCAL_COMMAND, timeout: expect.any(Number) }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: LOCAL_COMMAND, timeout: 30 }] }],
      },
    });
    expect(scenario.init?.stdout).toMatch(/approve gate's Stop and UserPromptSubmit hooks under \/hooks/);
    const run = await scenario.run('What does this project do?', [text('It adds numbers.')]);

    expect(run.main).toHaveLength(1);
    expect(run.blocked).toEqual([]);
    expect(run.stdout.trim()).toBe('It adds numbers.');
    expect(scenario.mock.unscripted()).toEqual([]);
    expect(run.hooks).toEqual([
      { event: 'UserPromptSubmit', status: 'Completed' },
      { event: 'Stop', status: 'Completed' },
    ]);
    // The UserPromptSubmit hook recorded the baseline and printed nothing (its stdout would reach the model).
    expect(run.sent[0]).toBe('What does this project do?');
    expect(scenario.sessionFiles()).toEqual([`${run.sessionId}.json`]);
    expect(scenario.testGateRan()).toBe(false);
  });

  it('sends the model the report when it breaks a test, and lets the turn end once it fixes it', async () => {
    const scenario = await start();
    const run = await scenario.run('Refactor sum.', [edit('src/sum.ts', SUM_BROKEN), text('Refactored.'), edit('src/sum.ts', SUM_OK), text('Fixed.')]);

    // break, stop (blocked), fix, stop (allowed): four model requests, the third one carries the report.
    expect(run.main).toHaveLength(4);
    expect(run.blocked).toEqual([2]);
    expect(stopStatuses(run)).toEqual(['Blocked', 'Completed']);
    expect(run.stdout.trim()).toBe('Fixed.');
    expect(scenario.mock.unscripted()).toEqual([]);

    // Exactly one copy of the report, XML-escaped inside Codex's hook_prompt element.
    expect(run.hookRunIds).toEqual([expect.stringMatching(/^stop:\d+:.*\/\.codex\/hooks\.json$/)]);
    expect(run.sent[2]).toContain('sum &gt; adds two numbers');
    const [report = ''] = run.reports;
    expectSumReport(report, 1);
    expect(report.split('expected -1 to be 3')).toHaveLength(2);

    expect(scenario.project.read('src/sum.ts')).toBe(SUM_OK);
    expect(scenario.project.status()).toEqual([]);
  });

  it('blocks exactly maxBlocks (3) times while the agent keeps editing and stays red, then lets the turn end', async () => {
    const scenario = await start();
    const steps = [0, 1, 2, 3].flatMap((k) => [edit('src/sum.ts', stillBroken(k)), text(`Attempt ${k + 1}.`)]);
    const run = await scenario.run('Refactor sum.', steps);

    // Codex has no loop cap of its own: gate's bound ends it. Four stops, three blocked, the fourth
    // let through with a systemMessage notice, which Codex accepts ("Completed", not "Failed").
    expect(run.main).toHaveLength(8);
    expect(run.blocked).toEqual([2, 4, 6]);
    expect(run.reports.map((report) => /block (\d) of 3\./.exec(report)?.[1])).toEqual(['1', '2', '3']);
    expect(stopStatuses(run)).toEqual(['Blocked', 'Blocked', 'Blocked', 'Completed']);
    expect(run.stdout.trim()).toBe('Attempt 4.');
    expect(scenario.mock.unscripted()).toEqual([]);
    // The notice is for the human only: it never reaches the model.
    expect(run.main.map(allInputText).join('\n')).not.toContain('let the turn end');
  });

  it('does not block a question-only turn in a repo whose tests were already red and uncommitted (the turn-start baseline)', async () => {
    const scenario = await start();
    scenario.project.write('src/sum.ts', SUM_BROKEN);
    const run = await scenario.run('What does sum do?', [text('It subtracts b from a, despite its name.')]);

    expect(run.main).toHaveLength(1);
    expect(run.blocked).toEqual([]);
    expect(stopStatuses(run)).toEqual(['Completed']);
    expect(scenario.sessionFiles()).toEqual([`${run.sessionId}.json`]);
    expect(scenario.testGateRan()).toBe(false);
  });

  it('never runs until the hooks are approved: codex exec skips unapproved hooks without a word (the enable step)', async () => {
    const scenario = await start();
    const run = await scenario.run('Refactor sum.', [edit('src/sum.ts', SUM_BROKEN), text('Refactored.')], { bypassHookTrust: false });

    expect(run.main).toHaveLength(2);
    expect(run.hooks).toEqual([]);
    expect(run.stderr).not.toMatch(/hooks?\b.*(review|approve|trust)/i);
    expect(scenario.sessionFiles()).toEqual([]);
  });

  it('blocks when Codex is started in a subdirectory of a repository whose path has a space', async () => {
    const scenario = await start({ spacedPath: true });
    expect(scenario.project.repo).toContain(' ');
    const run = await scenario.run('Refactor sum.', [edit('../sum.ts', SUM_BROKEN), text('Refactored.'), edit('../sum.ts', SUM_OK), text('Fixed.')], { subdir: 'src/deep' });

    expect(run.main).toHaveLength(4);
    expect(run.blocked).toEqual([2]);
    // gate takes the payload's cwd (Codex's session directory) as the project and finds the config above it.
    expectSumReport(run.reports[0] ?? '', 1, '../../');
    expect(run.reports[0]).toContain('$ cd ../.. && npx vitest');
    expect(stopStatuses(run)).toEqual(['Blocked', 'Completed']);
  });
});

describe(`gate installed --personal for Codex CLI ${CODEX_VERSION}`, () => {
  it("writes ~/.codex/hooks.json, touches none of the team's files, and blocks in this repository", async () => {
    const scenario = await start({ install: 'personal' });
    expect(scenario.init?.stdout).toMatch(/no uncommitted project hook file, so this personal install is at user level/);
    expect(scenario.project.exists('.codex/hooks.json')).toBe(false);
    expect(scenario.project.status()).toEqual([' M .gitignore']);
    expect(scenario.project.read('.gitignore')).toContain('gate.local.json');
    // A user-level hook runs in every repository: this checkout's gate by absolute path, not one relative to a repository.
    const command = `${scenario.project.repo}/node_modules/.bin/gate run --harness codex`;
    expect(JSON.parse(scenario.hooksFile())).toMatchObject({ hooks: { Stop: [{ hooks: [{ command }] }] } });

    const run = await scenario.run('Refactor sum.', [edit('src/sum.ts', SUM_BROKEN), text('Refactored.'), edit('src/sum.ts', SUM_OK), text('Fixed.')]);
    expect(run.blocked).toEqual([2]);
    expectSumReport(run.reports[0] ?? '', 1);
  });
});
