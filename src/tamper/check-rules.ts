import { adds, type LineRule, type SourceRules } from './line-rule.js';

const COMMENT = String.raw`(?:\/\/|\/\*|^\s*\*|<!--|\{\s*\/\*)\s*`;

/** Suppression comments and attributes in source files, tests included. */
export const SUPPRESSION_RULES: SourceRules[] = [
  {
    languages: ['js'],
    scope: 'everywhere',
    inComments: true,
    rules: [
      { kind: 'weakened-check', pattern: new RegExp(`${COMMENT}eslint-disable`), detail: () => 'adds an eslint-disable comment' },
      { kind: 'weakened-check', pattern: new RegExp(`${COMMENT}oxlint-disable`), detail: () => 'adds an oxlint-disable comment' },
      { kind: 'weakened-check', pattern: new RegExp(`${COMMENT}biome-ignore`), detail: () => 'adds a biome-ignore comment' },
      { kind: 'weakened-check', pattern: new RegExp(`${COMMENT}deno-lint-ignore`), detail: () => 'adds a deno-lint-ignore comment' },
      { kind: 'weakened-check', pattern: new RegExp(`${COMMENT}@ts-(ignore|nocheck|expect-error)\\b`), detail: (match) => `adds @ts-${match[1]}` },
    ],
  },
  {
    languages: ['py'],
    scope: 'everywhere',
    inComments: true,
    rules: [
      { kind: 'weakened-check', pattern: /#\s*(?:(?:ruff|flake8):\s*)?noqa\b/i, detail: () => 'adds # noqa' },
      { kind: 'weakened-check', pattern: /#\s*type:\s*ignore\b/, detail: () => 'adds # type: ignore' },
      { kind: 'weakened-check', pattern: /#\s*pyright:\s*(ignore|basic)\b/, detail: (match) => `adds # pyright: ${match[1]}` },
      { kind: 'weakened-check', pattern: /#\s*pylint:\s*disable\b/, detail: () => 'adds # pylint: disable' },
      { kind: 'weakened-check', pattern: /#\s*mypy:\s*ignore-errors\b/, detail: () => 'adds # mypy: ignore-errors' },
    ],
  },
  {
    languages: ['go'],
    scope: 'everywhere',
    inComments: true,
    rules: [
      { kind: 'weakened-check', pattern: /\/\/\s?nolint\b/, detail: () => 'adds a //nolint comment' },
      {
        kind: 'weakened-check',
        pattern: /^\s*\/\/\s*(?:go:build|\+build)\s+ignore\b/,
        detail: () => 'adds //go:build ignore (the file is no longer built or tested)',
      },
    ],
  },
  {
    languages: ['rust'],
    scope: 'everywhere',
    inComments: true,
    rules: [{ kind: 'weakened-check', pattern: /#!?\[allow\(([^)]{0,80})/, detail: (match) => `adds #[allow(${match[1]})]` }],
  },
];

const CHECKER =
  /\b(?:vitest|jest|mocha|ava|playwright|cypress|pytest|py\.test|tox|nox|eslint|biome|oxlint|tsc|ruff|flake8|pylint|mypy|pyright|cargo|go|golangci-lint|test|tests|lint|check|typecheck|addopts)\b/;

/** Commands and settings in package.json, CI files, Makefiles and tool configs. */
export const COMMAND_RULES: LineRule[] = [
  { kind: 'weakened-check', pattern: /--passWithNoTests\b|--pass-with-no-tests\b/, detail: () => 'adds --passWithNoTests' },
  { kind: 'weakened-check', pattern: /\bpassWithNoTests["'`]?\s*[:=]\s*true\b/, detail: () => 'sets passWithNoTests: true' },
  {
    kind: 'weakened-check',
    pattern: /\|\|\s*(?:true|exit\s+0|:)(?=\s*(?:$|["'`;&|)]))/,
    alongside: CHECKER,
    detail: (match) => `makes a check always succeed (${match[0].replace(/\s+/g, ' ')})`,
  },
  {
    kind: 'weakened-check',
    pattern: /--(ignore(?:-glob|-pattern)?|deselect|exclude|testPathIgnorePatterns|test-path-ignore-patterns)(?=[=\s"'`]|$)/,
    alongside: CHECKER,
    detail: (match) => `adds --${match[1]}`,
  },
  { kind: 'weakened-check', pattern: /(?:^|[\s"'`])-k(?:\s+|=)?["']?not\b/, detail: () => 'adds -k "not …" (deselects tests)' },
  { kind: 'weakened-check', pattern: /(?:^|[\s"'`])--?skip(?=[=\s])/, alongside: CHECKER, detail: adds },
  { kind: 'weakened-check', pattern: /--exit-zero\b/, detail: () => 'adds --exit-zero' },
  { kind: 'weakened-check', pattern: /--noCheck\b/, detail: () => 'adds --noCheck' },
  {
    kind: 'weakened-check',
    pattern: /--max-warnings[=\s]+["']?(\d+)/,
    detail: (match) => (match[1] === '0' ? undefined : `allows lint warnings (--max-warnings ${match[1]})`),
  },
  { kind: 'gate-config', pattern: /\bGATE_SKIP\b/, detail: () => 'sets GATE_SKIP' },
  { kind: 'gate-config', pattern: /\bGATE\s*=\s*["']?0\b|["']GATE["']\s*:\s*["']?0\b/, detail: () => 'sets GATE=0 (turns gate off)' },
];
