// What each tool prints whatever its config (its totals, its headings, its line format); the first
// that matches a line of the task's output wins.
const SIGNATURES: ReadonlyArray<readonly [string, RegExp]> = [
  ['vitest', /^\s*RUN\s+v\d+\.\d+|^\s*Test Files {2}\S|^⎯+ Failed (?:Tests|Suites) \d+ ⎯+$/],
  ['jest', /^Test Suites: +\d|^Tests: +\d/],
  ['node-test', /^ℹ (?:tests|pass|fail) \d+$|^TAP version \d+$|^# (?:tests|pass|fail) \d+$/],
  ['mocha', /^\s+\d+ (?:passing|failing)\b|^\s*Exception during run: /],
  ['tsc', /\(\d+,\d+\): (?:error|warning) TS\d+: |:\d+:\d+ - (?:error|warning) TS\d+: |^error TS\d+: /],
  ['biome', /^Checked \d+ files? in |\S.* ━{3,}$/],
  ['eslint', /^✖ \d+ problems? \(|^\s+\d+:\d+\s+(?:error|warning)\s{2}/],
];

// When the output has no signature (a crash, a config error): the script the package manager echoed.
const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['vitest', /\bvitest\b/],
  ['jest', /\bjest\b/],
  ['node-test', /\bnode\b.*\s--test\b/],
  ['mocha', /\bmocha\b/],
  ['tsc', /\b(?:tsc|vue-tsc)\b/],
  ['biome', /\bbiome\b/],
  ['eslint', /\beslint\b/],
];

/** The filter id for one task's output: the tool that printed it, or `generic`. */
export function detectTool(lines: readonly string[], script: string | undefined): string {
  for (const [tool, signature] of SIGNATURES) if (lines.some((line) => signature.test(line))) return tool;
  for (const [tool, pattern] of SCRIPTS) if (script !== undefined && pattern.test(script)) return tool;
  return 'generic';
}

// vitest names its files from its root (`test.root`, else the package): ` RUN  v4.1.12 /repo/packages/vue/test`.
const VITEST_ROOT = /^\s*RUN\s+v\d+\.\d+\S*\s+((?:[A-Za-z]:)?[\\/].*?)\s*$/;

/** The folder a task's tool names its files from, when the tool printed it. */
export function printedRoot(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const root = VITEST_ROOT.exec(line)?.[1];
    if (root !== undefined) return root;
  }
  return undefined;
}
