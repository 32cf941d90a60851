// Which form a block takes under Claude Code: additionalContext (exit 0) from 2.1.163, exit 2 before,
// as the version in AI_AGENT says (docs/stop-contract.md). The real CLI's side is tests/claude/.
import { afterEach, describe, expect, it } from 'vitest';
import { SUM_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { hookPayload, promptStart, runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const TOLD = 'gate: refused the stop (block 1 of 3): test failed; the agent has the report.';

function brokenStop(aiAgent: string | undefined, extra: Record<string, unknown> = {}) {
  repo = makeRepo(vitestProject(), { nodeModules: true });
  promptStart(repo);
  repo.write('src/sum.ts', SUM_BROKEN);
  const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, ...(aiAgent === undefined ? {} : { AI_AGENT: aiAgent }) };
  return runBin(['run'], { cwd: repo.dir, env, input: hookPayload('Stop', 'session-1', repo.dir, extra) });
}

describe('the form of a block under Claude Code', () => {
  it('is one JSON line with the report as the Stop event\'s additionalContext, exit 0, under 2.1.332', () => {
    const result = brokenStop('claude-code_2-1-332_harness');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toHaveLength(2);
    const answer = JSON.parse(result.stdout);
    expect(answer).toEqual({ systemMessage: TOLD, hookSpecificOutput: { hookEventName: 'Stop', additionalContext: expect.any(String) } });
    expect(answer.hookSpecificOutput.additionalContext).toMatch(/^gate: 1 of 1 checks failed \(test\); stop refused, block 1 of 3\.\n[\s\S]*expected -1 to be 3/);
  });

  it('is exit 2 with the report on stderr under 2.1.162, which would let an additionalContext stop through', () => {
    const result = brokenStop('claude-code_2-1-162_harness');
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({ systemMessage: TOLD });
    expect(result.stderr).toMatch(/^gate: 1 of 1 checks failed \(test\); stop refused, block 1 of 3\./);
  });

  it('is exit 2 when nothing says which Claude Code runs the hook', () => {
    expect(brokenStop(undefined).code).toBe(2);
    expect(brokenStop('claude-code_2-1-332_agent').code).toBe(2);
  });

  it('is Copilot CLI\'s decision when Copilot runs the Claude entry, whatever AI_AGENT says', () => {
    const result = brokenStop('claude-code_2-1-332_harness', { stop_reason: 'end_turn' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/^gate: 1 of 1 checks failed/) });
  });
});
