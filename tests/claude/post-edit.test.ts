// The post-edit nudge on the real Claude Code CLI: `gate init` writes a PostToolUse entry for Edit,
// Write and MultiEdit; after an edit that skips a failing test the model reads gate's word with the
// tool's result — before its next step, not only at the stop. And the checks the edit starts ahead
// of the stop (the gates that only read the tree) run while the model answers.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { CLAUDE_CODE_VERSION } from './claude-cli.mjs';
import { SUM_BROKEN } from './gate-project.mjs';
import { allMessageText } from './mock-anthropic.mjs';
import { edit, say, useScenarios } from './scenario.js';

const start = useScenarios();
const NUDGE = 'gate: this edit makes a check easier to pass instead of making the code right:';

describe(`the post-edit nudge in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it('tells the model at once when an Edit skips a test, with that tool result and no other', async () => {
    const scenario = await start();
    const settings = JSON.parse(scenario.project.read('.claude/settings.json')) as { hooks: Record<string, Array<{ matcher?: string }>> };
    expect(settings.hooks['PostToolUse']?.[0]?.matcher).toBe('Edit|Write|MultiEdit');
    const file = join(scenario.project.repo, 'src', 'sum.test.ts');
    const run = await scenario.run('Make sum subtract.', [
      edit('src/sum.ts', SUM_BROKEN),
      { toolUse: { name: 'Read', input: { file_path: file } } },
      { toolUse: { name: 'Edit', input: { file_path: file, old_string: "  it('adds two numbers'", new_string: "  it.skip('adds two numbers'" } } },
      say('Done.'),
      say('Done.'),
      say('Done.'),
      say('Done.'),
    ]);

    // Requests: the prompt, after Bash, after Read, after Edit (the nudge), then the stops.
    const afterEdit = allMessageText(run.main[3]);
    expect(afterEdit).toContain(NUDGE);
    expect(afterEdit).toMatch(/src\/sum\.test\.ts:\d+: adds it\.skip\(/);
    expect(allMessageText(run.main[2])).not.toContain(NUDGE);
    // Said once: the Read and the Bash edit of the code brought no word from gate.
    expect(run.main.slice(0, 3).some((request) => allMessageText(request).includes('gate:'))).toBe(false);
  });

  it("runs the gates that only read the tree while the model answers: the stop takes tsc's result", async () => {
    const scenario = await start();
    Object.assign(scenario.project.env, { GATE_AHEAD: '1', GATE_AHEAD_SETTLE_MS: '0' });
    const file = join(scenario.project.repo, 'src', 'sum.ts');
    const ahead = join(scenario.project.repo, '.git', 'gate', 'ahead');
    // The model's last answer waits for the check the edit started (its pid file goes when it ends).
    const checked = async () => {
      const end = Date.now() + 60_000;
      while (!(existsSync(join(ahead, 'results.json')) && readdirSync(ahead).every((name) => !name.endsWith('.pid')))) {
        if (Date.now() > end) throw new Error('no check ahead of the stop within 60 s');
        await new Promise((done) => setTimeout(done, 100));
      }
    };
    const run = await scenario.run('Rename the parameters.', [
      { toolUse: { name: 'Read', input: { file_path: file } } },
      { toolUse: { name: 'Edit', input: { file_path: file, old_string: 'return a + b;', new_string: 'return b + a;' } } },
      { text: 'Done.', before: checked },
    ]);
    expect(run.blocked).toEqual([]);
    const gates = readStopRecords(join(scenario.project.repo, '.git', 'gate')).at(-1)?.gates ?? [];
    expect(gates.find((gate) => gate.name === 'typecheck')).toMatchObject({ status: 'passed', ahead: true });
    expect(gates.find((gate) => gate.name === 'test')?.ahead).toBeUndefined();
  });

  it('says nothing after an ordinary edit', async () => {
    const scenario = await start();
    const file = join(scenario.project.repo, 'src', 'sum.ts');
    const run = await scenario.run('Rename the parameters.', [
      { toolUse: { name: 'Read', input: { file_path: file } } },
      { toolUse: { name: 'Edit', input: { file_path: file, old_string: 'return a + b;', new_string: 'return b + a;' } } },
      say('Done.'),
    ]);
    expect(run.main).toHaveLength(3);
    expect(allMessageText(run.main[2])).not.toContain('gate:');
    expect(run.blocked).toEqual([]);
  });
});
