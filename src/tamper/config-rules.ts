/**
 * A detector for one added line of a tool's config file, by the keys around the line (see
 * key-chain.ts): `exclude` inside vitest's `test` block, `ignore` under `[tool.ruff.lint]`.
 */
export interface ConfigRule {
  /** The config file, by base name. */
  file: RegExp;
  /** Some key around the line, or the file's base name, must match. */
  within?: RegExp;
  notWithin?: RegExp;
  /** The line's own key or, when it has none, the key of the block it is in. */
  key?: RegExp;
  text?: RegExp;
  detail: (key: string | undefined, match: RegExpExecArray | undefined) => string | undefined;
}

const VITEST = /^(?:vite|vitest)(?:\.workspace)?\.config\.[cm]?[jt]s$|^vitest\.workspace\.[cm]?[jt]s$/;
const TEST_RUNNERS =
  /^(?:(?:jest|playwright|vitest|vite)\.config\.(?:[cm]?[jt]s|json)|package\.json|pytest\.ini|pyproject\.toml|setup\.cfg|tox\.ini|conftest\.py)$/;
const TSCONFIG = /^[tj]sconfig(?:\.[\w.-]+)?\.json$/;
const ESLINT = /^(?:\.eslintrc(?:\.(?:c?js|json|ya?ml))?|eslint\.config\.[cm]?[jt]s|\.oxlintrc\.json)$/;
const BIOME = /^biome\.jsonc?$/;
const PYTHON_TOOLS = /^(?:pyproject\.toml|setup\.cfg|tox\.ini|\.?ruff\.toml|\.flake8|\.pylintrc|pylintrc|\.?mypy\.ini|pyrightconfig\.json)$/;
const GOLANGCI = /^\.golangci\.(?:ya?ml|toml|json)$/;
// eslint, oxlint and biome: 'no-console': 'off', "noExplicitAny": "off", eqeqeq: 0, rule: [0, …]
// (A rule name starts after a delimiter: a match may not begin inside a word, which keeps this linear.)
const RULE_OFF = /(?:^|[\s{,])(["']?)([@\w/-]+)\1\s*:\s*\[?\s*(?:(["'])off\3|off\b|0\b(?!\.))\s*(?:[,\]}]|$)/;

const turnsOff = (_key: string | undefined, match: RegExpExecArray | undefined) => `turns off the lint rule ${match?.[2] ?? ''}`;
const addsTo = (what: string) => (key: string | undefined) => `adds to ${key ?? 'the ignore list'} in ${what}`;

export const CONFIG_RULES: ConfigRule[] = [
  { file: VITEST, within: /^test$/, notWithin: /^coverage$/, key: /^exclude$/, detail: () => 'excludes test files (vitest exclude)' },
  { file: TEST_RUNNERS, key: /^(?:testPathIgnorePatterns|testIgnore|norecursedirs|collect_ignore(?:_glob)?)$/, detail: addsTo('the test runner config') },
  { file: /^\.mocharc\.(?:c?js|jsonc?|ya?ml)$/, key: /^(?:ignore|exclude)$/, detail: addsTo('the mocha config') },
  { file: TSCONFIG, key: /^exclude$/, detail: () => 'excludes files from the typecheck' },
  {
    file: TSCONFIG,
    text: /"(strict\w*|noImplicit\w+|noUnchecked\w+|alwaysStrict|useUnknownInCatchVariables|exactOptionalPropertyTypes|noPropertyAccessFromIndexSignature|checkJs)"\s*:\s*false\b/,
    detail: (_key, match) => `sets ${match?.[1] ?? ''} to false`,
  },
  { file: TSCONFIG, text: /"noCheck"\s*:\s*true\b/, detail: () => 'sets noCheck to true' },
  { file: ESLINT, text: RULE_OFF, detail: turnsOff },
  { file: BIOME, text: RULE_OFF, detail: turnsOff },
  { file: /^package\.json$/, within: /^eslintConfig$/, text: RULE_OFF, detail: turnsOff },
  { file: ESLINT, key: /^(?:ignores|ignorePatterns)$/, detail: () => 'adds a lint ignore pattern' },
  { file: /^package\.json$/, within: /^eslintConfig$/, key: /^ignorePatterns$/, detail: () => 'adds a lint ignore pattern' },
  { file: BIOME, key: /^ignore$/, detail: () => 'adds a lint ignore pattern' },
  { file: BIOME, key: /^includes$/, text: /["']!/, detail: () => 'adds a lint ignore pattern' },
  { file: /^\.eslintignore$/, text: /^\s*[^#\s]/, detail: () => 'adds a path to .eslintignore' },
  { file: PYTHON_TOOLS, within: /ruff|flake8/, key: /^(?:extend-)?(?:ignore|exclude|per-file-ignores)$/, detail: addsTo('the lint config') },
  { file: PYTHON_TOOLS, within: /pylint|messages control/i, key: /^disable$/, detail: addsTo('the pylint config') },
  { file: PYTHON_TOOLS, within: /mypy|pyright/, key: /^(?:exclude|ignore|disable_error_code)$/, detail: addsTo('the type checker config') },
  { file: PYTHON_TOOLS, within: /mypy/, text: /\b(ignore_errors)\s*=\s*true\b/i, detail: () => 'sets ignore_errors = true' },
  { file: PYTHON_TOOLS, within: /mypy|pyright/, text: /\bstrict["']?\s*[=:]\s*false\b/i, detail: () => 'sets strict to false' },
  { file: PYTHON_TOOLS, text: /typeCheckingMode["']?\s*[:=]\s*["'](off|basic)/, detail: (_key, match) => `sets typeCheckingMode to ${match?.[1] ?? ''}` },
  {
    file: GOLANGCI,
    within: /^(?:disable(?:-all)?|exclude[\w-]*|exclusions|skip-[\w-]+)$/,
    detail: () => 'disables or excludes checks in the golangci-lint config',
  },
  { file: /^Cargo\.toml$/, within: /lints/, text: /=\s*(?:"allow"|\{[^}]*level\s*=\s*"allow")/, detail: () => 'allows a lint in Cargo.toml' },
  {
    file: /^package\.json$/,
    within: /^scripts$/,
    text: /^\s*"(test(?::[\w:-]+)?|lint|typecheck|check)"\s*:\s*"(?:echo\b[^"]*|true|exit 0|:)?"/,
    detail: (_key, match) => `makes the ${match?.[1] ?? ''} script a no-op`,
  },
];
