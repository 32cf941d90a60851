import { describe, expect, it } from 'vitest';
import { askingAt, askingReason, judgeAsking } from '../../src/asking/decide-asking.js';
import { endsWithQuestion } from '../../src/asking/ends-with-question.js';
import { ADAPTERS } from '../../src/harness/adapters.js';
import { parsePayload } from '../../src/hook/parse-payload.js';

describe('endsWithQuestion: the final paragraph of prose ends with a question mark', () => {
  it.each([
    ['a plain question', 'Should I also migrate the old records?'],
    ['a question after a report of what was done', 'I renamed the column.\n\nShould I also migrate the old records?'],
    ['a question closing the last paragraph', 'I renamed the column. The old records still use the old name. Should I migrate them?'],
    ['trailing whitespace and blank lines', 'Should I go on?  \n\n \n\t\n'],
    ['Windows line ends', 'Done with part one.\r\n\r\nShould I go on?\r\n'],
    ['bold', 'Two ways to fix this.\n\n**Which one do you prefer?**'],
    ['a list of questions', 'Before I go on:\n1. Should the old API stay?\n2. Do you want a migration?'],
    ['prose right after a code block', 'The test expects this:\n```ts\nexpect(sum(1, 2)).toBe(3);\n```\nShould I change the test or the code?'],
    ['Chinese, fullwidth mark', '我已经重命名了这一列。\n\n要不要也迁移旧记录？'],
    ['Japanese, ASCII mark', '列の名前を変更しました。古いレコードも移行しますか?'],
    ['Arabic', 'هل أنقل السجلات القديمة أيضًا؟'],
    ['Spanish', 'He cambiado el nombre de la columna. ¿Migro también los registros antiguos?'],
    ['German', 'Soll ich auch die alten Datensätze migrieren?'],
    ['Greek, ASCII mark', 'Να μεταφέρω και τις παλιές εγγραφές?'],
    ['a very long message', `${'The change touches many files. '.repeat(20_000)}\n\nShould I go on?`],
  ])('%s: asking', (_what, message) => {
    expect(endsWithQuestion(message)).toBe(true);
  });

  it.each([
    ['no message', undefined],
    ['empty', ''],
    ['only whitespace', ' \n\t\n'],
    ['a statement', 'Done: sum adds again and the tests pass.'],
    ['a question followed by a summary', 'Should I also migrate the old records?\n\nFor now I only renamed the column.'],
    ['a rhetorical question answered in the same paragraph', 'Why did it fail? Because sum subtracted.'],
    ['a question inside a code block at the end', 'Here is the fix:\n\n```ts\nconst x = a ? b : c?\n```'],
    ['a code block whose last line ends with "?"', 'Done.\n\n```\nls -la?\n```\n'],
    ['an unterminated code block', 'Here it is:\n\n```sh\necho "ready?"'],
    ['a tilde fence', 'Done.\n\n~~~\nwhy?\n~~~'],
    ['an indented code block', 'Done.\n\n    if (a) b?'],
    ['a quoted question', 'The error said "is the file missing?"'],
    ['a curly-quoted question', 'The user story reads “can I export?”'],
    ['a block quote', 'From the issue:\n\n> Should this also work offline?'],
    ['inline code', 'The regex is `a?`'],
    ['a parenthetical', 'I kept the old name (was that intended?)'],
    ['a heading', 'All done.\n\n## Next steps?'],
    ['a table row', '| step | done? |'],
    ['an exclamation', 'All tests pass!'],
    ['a question mark followed by an emoji', 'Shall I continue? 🙂'],
    ['a very long statement', `${'Is it? '.repeat(10_000)}Done.`],
  ])('%s: not asking', (_what, message) => {
    expect(endsWithQuestion(message)).toBe(false);
  });

  it('stays linear on a megabyte of fences and question marks', () => {
    const message = '```\n?\n'.repeat(100_001);
    const started = performance.now();
    expect(endsWithQuestion(message)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('askingAt: which stops whenAsking steps aside for', () => {
  const question = { planMode: false, lastMessage: 'Should I go on?' };
  const done = { planMode: false, lastMessage: 'Done.' };
  const plan = { planMode: true, lastMessage: 'Here is the plan.' };

  it('"allow": plan mode and a final question', () => {
    expect(askingAt(plan, 'allow')).toBe('plan');
    expect(askingAt(question, 'allow')).toBe('question');
    expect(askingAt(done, 'allow')).toBeUndefined();
  });

  it('"plan-only" (the default): plan mode only', () => {
    expect(askingAt(plan, 'plan-only')).toBe('plan');
    expect(askingAt(question, 'plan-only')).toBeUndefined();
  });

  it('"block": neither', () => {
    expect(askingAt(plan, 'block')).toBeUndefined();
    expect(askingAt(question, 'block')).toBeUndefined();
  });
});

describe('judgeAsking: let through and counted, until the same gates stayed red for maxBlocks questions', () => {
  it('lets the first question through and starts a streak', () => {
    const first = judgeAsking('question', ['test'], undefined, 3);
    expect(first).toEqual({ letThrough: true, streak: { stops: 1, red: ['test'] } });
    expect(askingReason('question', first)).toBe('asked the human: let through red');
  });

  it('counts questions while the same gates stay red, and gates the one after maxBlocks as usual', () => {
    let streak: { stops: number; red: string[] } | undefined;
    const verdicts: boolean[] = [];
    for (let stop = 0; stop < 4; stop++) {
      const judgement = judgeAsking('question', ['test', 'typecheck'], streak, 3);
      verdicts.push(judgement.letThrough);
      streak = judgement.streak;
    }
    expect(verdicts).toEqual([true, true, true, false]);
    expect(streak).toEqual({ stops: 4, red: ['test', 'typecheck'] });
    expect(askingReason('question', judgeAsking('question', ['test'], { stops: 2, red: ['test'] }, 3))).toBe('asked the human (3 in a row): let through red');
    expect(askingReason('question', judgeAsking('question', ['test'], { stops: 3, red: ['test'] }, 3))).toBe('asked the human (4 in a row): gated as usual');
  });

  it('starts again when other gates are red', () => {
    expect(judgeAsking('question', ['lint'], { stops: 3, red: ['test'] }, 3)).toEqual({ letThrough: true, streak: { stops: 1, red: ['lint'] } });
  });

  it('always lets plan mode through: the agent may not edit there', () => {
    const judgement = judgeAsking('plan', ['test'], { stops: 5, red: ['test'] }, 3);
    expect(judgement.letThrough).toBe(true);
    expect(askingReason('plan', judgement)).toBe('plan mode (6 in a row): let through red');
  });
});

describe('what each harness payload says', () => {
  const stopOf = (harness: keyof typeof ADAPTERS, event: string, data: Record<string, unknown>) =>
    parsePayload(JSON.stringify({ session_id: 's', cwd: '/repo', hook_event_name: event, ...data }), ADAPTERS[harness], undefined);

  it('Claude Code: last_assistant_message and permission_mode', () => {
    expect(stopOf('claude', 'Stop', { permission_mode: 'plan', last_assistant_message: 'Plan?' })).toMatchObject({ planMode: true, lastMessage: 'Plan?' });
    expect(stopOf('claude', 'Stop', { permission_mode: 'default', last_assistant_message: '' })).toMatchObject({ planMode: false, lastMessage: undefined });
    expect(stopOf('claude', 'Stop', { permission_mode: 'acceptEdits' })).toMatchObject({ planMode: false, lastMessage: undefined });
  });

  it('Codex (null message) and Qwen Code carry the same keys', () => {
    expect(stopOf('codex', 'Stop', { permission_mode: 'plan', last_assistant_message: null })).toMatchObject({ planMode: true, lastMessage: undefined });
    expect(stopOf('qwen', 'Stop', { permission_mode: 'plan', last_assistant_message: 'Go on?' })).toMatchObject({ planMode: true, lastMessage: 'Go on?' });
  });

  it("Gemini CLI: the turn's text as prompt_response", () => {
    expect(stopOf('gemini', 'AfterAgent', { prompt: 'fix it', prompt_response: 'Which one?' })).toMatchObject({ planMode: false, lastMessage: 'Which one?' });
  });

  it('Factory Droid: spec mode is its plan mode', () => {
    expect(stopOf('factory', 'Stop', { permission_mode: 'spec' })).toMatchObject({ planMode: true });
    expect(stopOf('factory', 'Stop', { permission_mode: 'auto-high' })).toMatchObject({ planMode: false });
  });

  it('a malformed value is no asking', () => {
    expect(stopOf('claude', 'Stop', { permission_mode: ['plan'], last_assistant_message: { text: 'Go on?' } })).toMatchObject({ planMode: false, lastMessage: undefined });
  });
});
