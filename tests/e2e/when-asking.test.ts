// whenAsking with the built bin: a stop whose agent plans or asks the human is let through red, the
// human told what is red, the stop log says why — and it is no loophole.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { SUM_BROKEN, SUM_CHECK_GATE, SUM_OK, SUM_STILL_BROKEN, SUM_TEST, vitestProject } from '../helpers/fixtures.js';
import { promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const GATES = [{ name: 'test', preset: 'vitest' }];
// Where the point is what the stop decides about a red gate, not which test failed: no runner's start-up.
const QUICK_GATES = [SUM_CHECK_GATE];
const QUESTION = 'I changed sum as asked.\n\nShould I also migrate the old records?';
const DONE = 'I changed sum as asked. Done.';
const SUM_OFF_BY_ONE = SUM_OK.replace('a + b', 'a + b + 1');

const systemMessage = (stdout: string): string => JSON.parse(stdout).systemMessage;
const lastStop = (r: TempRepo) => readStopRecords(join(r.dir, '.git', 'gate')).at(-1);
const session = (r: TempRepo, id = 'session-1') => JSON.parse(readFileSync(join(r.dir, '.git', 'gate', 'sessions', `${id}.json`), 'utf8'));

function redTurn(config: object, payload: Record<string, unknown>) {
  repo = makeRepo(vitestProject(config), { nodeModules: true });
  promptStart(repo);
  repo.write('src/sum.ts', SUM_BROKEN);
  return stop(repo, 'session-1', payload);
}

describe('whenAsking: "allow"', () => {
  const config = { whenAsking: 'allow', gates: QUICK_GATES };

  it('lets a red stop that ends with a question through, tells the human what is red, and logs why', () => {
    const result = redTurn(config, { last_assistant_message: QUESTION, permission_mode: 'default' });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(systemMessage(result.stdout)).toMatch(/^gate: the agent ended its turn with a question to you, so the stop was let through; still failing: test\. Run "gate check"/);
    expect(lastStop(repo)).toMatchObject({ outcome: 'allow', path: 'checked', reason: 'asked the human: let through red', blocks: 0, gates: [{ name: 'test', status: 'failed' }] });
    expect(session(repo)).toMatchObject({ blocks: 0, asked: { stops: 1, red: ['test'] } });
  });

  it('still blocks the same red change when the agent says it is done', () => {
    const result = redTurn(config, { last_assistant_message: DONE, permission_mode: 'default' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^gate: 1 of 1 checks failed \(test\); stop refused, block 1 of 3\./);
    expect(lastStop(repo)).toMatchObject({ outcome: 'block', reason: 'failed' });
  });

  it.each([
    ['a question followed by a summary', 'Should I also migrate the old records?\n\nFor now I only changed sum.'],
    ['a question inside a code block', 'Changed:\n\n```ts\nconst x = ok ? a : b?\n```'],
    ['no last message', undefined],
  ])('blocks %s', (_what, message) => {
    expect(redTurn(config, { last_assistant_message: message }).code).toBe(2);
  });

  it('runs no gate for a question when nothing changed', () => {
    repo = makeRepo(vitestProject(config), { nodeModules: true });
    promptStart(repo);
    expect(stop(repo, 'session-1', { last_assistant_message: QUESTION })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(repo.dir, '.git', 'gate', 'logs', 'test.log'))).toBe(false);
    expect(lastStop(repo)).toMatchObject({ outcome: 'allow', path: 'fast', reason: 'no change' });
  });

  it('counts questions in a row while the same gates stay red: past maxBlocks the next one is gated as usual; green ends the streak', () => {
    repo = makeRepo(vitestProject({ ...config, gates: GATES, maxBlocks: 2 }), { nodeModules: true });
    promptStart(repo);
    const ask = (code: string) => {
      repo.write('src/sum.ts', code);
      return stop(repo, 'session-1', { last_assistant_message: QUESTION });
    };

    const first = ask(SUM_BROKEN);
    expect(first.code).toBe(0);
    expect(lastStop(repo)?.reason).toBe('asked the human: let through red');
    // The human answers: a new turn. The streak is kept (each let-through stop ends a turn).
    promptStart(repo);
    expect(session(repo)).toMatchObject({ blocks: 0, asked: { stops: 1, red: ['test'] } });

    // Red in a new way (a failure the turn's baseline did not have), asked again.
    repo.write('src/sum.test.ts', `${repo.git('show', 'HEAD:src/sum.test.ts')}\nit('adds zero', () => { expect(sum(2, 0)).toBe(2); });\n`);
    const second = ask(SUM_OFF_BY_ONE);
    expect(second.code).toBe(0);
    expect(systemMessage(second.stdout)).toMatch(/It has stopped to ask on 2 stops in a row while these stayed red; its next question is gated as usual \(maxBlocks 2\)\./);
    expect(lastStop(repo)?.reason).toBe('asked the human (2 in a row): let through red');

    const third = ask(SUM_STILL_BROKEN);
    expect(third.code).toBe(2);
    expect(third.stderr).toMatch(/^gate: 1 of 1 checks failed \(test\); stop refused, block 1 of 2\./);
    expect(systemMessage(third.stdout)).toContain('gate: the agent asked again after 2 questions in a row while test stayed red, so this stop was gated as usual.');
    expect(lastStop(repo)).toMatchObject({ outcome: 'block', reason: 'asked the human (3 in a row): gated as usual', blocks: 1 });

    repo.write('src/sum.test.ts', repo.git('show', 'HEAD:src/sum.test.ts'));
    const green = ask(SUM_OK);
    expect(green).toMatchObject({ code: 0, stdout: '' });
    expect(lastStop(repo)?.reason).toBe('all passed');
    expect(session(repo).asked).toBeUndefined();
  });
});

describe('whenAsking: "plan-only" (the default)', () => {
  it('lets a red stop in plan mode through, and says so', () => {
    const result = redTurn({ gates: QUICK_GATES }, { last_assistant_message: 'Here is the plan.', permission_mode: 'plan' });
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/^gate: the agent is in plan mode, so the stop was let through; still failing: test\./);
    expect(lastStop(repo)).toMatchObject({ outcome: 'allow', reason: 'plan mode: let through red', gates: [{ name: 'test', status: 'failed' }] });
  });

  it('gates a question as usual', () => {
    expect(redTurn({ gates: QUICK_GATES }, { last_assistant_message: QUESTION, permission_mode: 'default' }).code).toBe(2);
  });

  it('runs no gate in plan mode when nothing changed', () => {
    repo = makeRepo(vitestProject(), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    promptStart(repo);
    expect(stop(repo, 'session-1', { permission_mode: 'plan' })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(repo.dir, '.git', 'gate', 'logs', 'test.log'))).toBe(false);
  });

  it('reads whenAsking from the root config only: a package config saying "allow" is ignored', () => {
    const files = { ...vitestProject({ gates: [] }), 'pkg/gate.config.json': JSON.stringify({ whenAsking: 'allow', gates: GATES }), 'pkg/src/sum.ts': SUM_OK, 'pkg/src/sum.test.ts': SUM_TEST };
    repo = makeRepo(files, { nodeModules: true });
    promptStart(repo);
    repo.write('pkg/src/sum.ts', SUM_BROKEN);
    const result = stop(repo, 'session-1', { last_assistant_message: QUESTION });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^gate: 1 of 1 checks failed \(pkg:test\)/);
    expect(lastStop(repo)).toMatchObject({ outcome: 'block', reason: 'failed' });
  });
});

describe('whenAsking: "block"', () => {
  it('gates a plan-mode stop as usual', () => {
    const result = redTurn({ whenAsking: 'block', gates: QUICK_GATES }, { last_assistant_message: QUESTION, permission_mode: 'plan' });
    expect(result.code).toBe(2);
    expect(lastStop(repo)).toMatchObject({ outcome: 'block', reason: 'failed' });
  });

  it('is validated', () => {
    const result = redTurn({ whenAsking: 'sometimes', gates: QUICK_GATES }, { permission_mode: 'plan' });
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/whenAsking/);
  });
});
