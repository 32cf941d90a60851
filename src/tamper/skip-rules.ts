import { adds, type SourceRules } from './line-rule.js';

const CALL = String.raw`\s*[(\x60]`;
const CHAIN = String.raw`(?<![\w$.])(?:[\w$]+(?:\(\))?\.)+`;

/** Tests turned off, focused or left for later: added lines of test files. */
export const SKIP_RULES: SourceRules[] = [
  {
    languages: ['js'],
    scope: 'tests',
    inComments: false,
    rules: [
      // vitest, jest, mocha, node:test, jasmine: it.skip(, describe.skip.each(, it.skipIf(, this.skip(, t.skip(, it.fails(
      { kind: 'skip', pattern: new RegExp(`${CHAIN}(?:skip(?:If)?|fails|failing)(?:\\.each)?${CALL}`), detail: adds },
      { kind: 'skip', pattern: new RegExp(`(?<![\\w$.])x(?:it|test|describe|context|specify|suite)(?:\\.[\\w$]+)*${CALL}`), detail: adds },
      { kind: 'only', pattern: new RegExp(`${CHAIN}only(?:\\.each)?${CALL}`), detail: adds },
      { kind: 'only', pattern: new RegExp(`(?<![\\w$.])f(?:it|describe|context)${CALL}`), detail: adds },
      { kind: 'todo', pattern: new RegExp(`${CHAIN}todo(?:\\.each)?${CALL}`), detail: adds },
      // node:test options: test('x', { skip: true }, …)
      { kind: 'skip', pattern: /[{,]\s*skip\s*:\s*(?:true\b|['"`])/, detail: () => 'adds { skip: … } to a test' },
      { kind: 'todo', pattern: /[{,]\s*todo\s*:\s*(?:true\b|['"`])/, detail: () => 'adds { todo: … } to a test' },
      { kind: 'only', pattern: /[{,]\s*only\s*:\s*true\b/, detail: () => 'adds { only: true } to a test' },
    ],
  },
  {
    languages: ['py'],
    scope: 'tests',
    inComments: false,
    rules: [
      { kind: 'skip', pattern: /@?pytest\.mark\.(?:skip|skipif|xfail)\b/, detail: adds },
      { kind: 'skip', pattern: /\bpytest\.(?:skip|xfail|importorskip)\s*\(/, detail: adds },
      { kind: 'skip', pattern: /@(?:unittest\.)?(?:skip|skipIf|skipUnless|expectedFailure)\b/, detail: adds },
      { kind: 'skip', pattern: /\.skipTest\s*\(|\braise\s+(?:unittest\.)?SkipTest\b/, detail: adds },
    ],
  },
  {
    languages: ['go'],
    scope: 'tests',
    inComments: false,
    rules: [{ kind: 'skip', pattern: /\b\w+(?:\(\))?\.Skip(?:Now|f)?\s*\(/, detail: adds }],
  },
  {
    // Rust unit tests live next to the code, so every .rs file counts.
    languages: ['rust'],
    scope: 'everywhere',
    inComments: false,
    rules: [{ kind: 'skip', pattern: /#\[ignore\b/, detail: () => 'adds #[ignore]' }],
  },
  {
    languages: ['jvm'],
    scope: 'tests',
    inComments: false,
    rules: [{ kind: 'skip', pattern: /@(?:Disabled\w*|Ignore)\b/, detail: adds }],
  },
  {
    languages: ['ruby'],
    scope: 'tests',
    inComments: false,
    rules: [
      { kind: 'skip', pattern: /(?<![\w.])x(?:it|describe|context|specify|example)\b/, detail: adds },
      { kind: 'only', pattern: /(?<![\w.])f(?:it|describe|context)\b(?!\s*=)/, detail: adds },
      { kind: 'skip', pattern: /^\s*(?:skip|pending)\b(?!\s*=)/, detail: adds },
    ],
  },
  {
    languages: ['dotnet'],
    scope: 'tests',
    inComments: false,
    rules: [
      { kind: 'skip', pattern: /\bSkip\s*=\s*"/, detail: () => 'adds Skip = "…" to a test' },
      { kind: 'skip', pattern: /\[(?:Ignore|Explicit)\b/, detail: (match) => `adds ${match[0]}]` },
    ],
  },
  {
    languages: ['php'],
    scope: 'tests',
    inComments: false,
    rules: [{ kind: 'skip', pattern: /\bmarkTest(?:Skipped|Incomplete)\s*\(/, detail: adds }],
  },
];
