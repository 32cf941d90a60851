import { describe, expect, it } from 'vitest';
import { judgeCi, type CiRun } from '../../src/ci/judge-ci.js';
import { commentBody } from '../../src/ci/pr-comment.js';
import { COMMENT_MARKER } from '../../src/ci/upsert-comment.js';
import { sealReceipt } from '../../src/receipt/receipt.js';
import { gateFailures } from '../../src/report/gate-failures.js';
import type { GateResult } from '../../src/runner/gate-result.js';

// Issue 41: the pull request's comment, kept up to date in place by the Action.
const TSC = Array.from({ length: 7 }, (_, index) => `src/a.ts(${index + 1},1): error TS2304: Cannot find name 'x${index}'.`).join('\n');

function result(name: string, status: GateResult['status'], filter: string, output = ''): GateResult {
  return { name, status, command: `run ${name}`, exitCode: status === 'failed' ? 1 : 0, signal: undefined, output, filter, durationMs: 2100, logPath: `/r/${name}.log`, timeoutSeconds: 60 };
}

function body(tamper: CiRun['tamper']['findings']) {
  const results = [result('types', 'failed', 'tsc', TSC), result('lint', 'passed', 'eslint'), result('crash', 'failed', 'generic', 'Error: <config> | broke')];
  const run: CiRun = {
    rows: [
      { name: 'types', status: 'failed', outcome: 'failed (exit 1)', durationMs: 2100 },
      { name: 'lint', status: 'passed', outcome: 'passed', durationMs: 2100 },
      { name: 'crash', status: 'failed', outcome: 'failed (exit 1)', durationMs: 2100 },
      { name: 'docs', status: 'not-run', outcome: 'not run (GATE_SKIP)', durationMs: 0 },
    ],
    results,
    tamper: { mode: 'block', base: { ref: 'main', mergeBase: 'a'.repeat(40) }, findings: tamper, incomplete: undefined, changedFiles: 3, recorded: undefined },
  };
  const gates = gateFailures(results, { repoRoot: '/r', cwdOf: () => '/r', knownOf: (gate) => new Set(gate === 'types' ? ["src/a.ts TS2304: Cannot find name 'x0'."] : []) });
  const receipt = sealReceipt({ version: 1, verdict: 'fail', time: '2026-12-05T00:00:00.000Z', by: 'ci', tree: { head: 'b'.repeat(40), digest: '0123456789abcdef', changedFiles: 0 }, config: 'fedcba9876543210', gates: [] });
  return { text: commentBody({ run, verdict: judgeCi(run), gates, receipt, version: '9.9.9' }), receipt };
}

describe('the pull-request comment', () => {
  it('starts with the hidden marker, then the verdict, what ran and what was skipped', () => {
    const { text } = body([]);
    expect(text.startsWith(`${COMMENT_MARKER}\n### gate ci: ❌ FAIL\n\n2 of 3 gates failed (types, crash); tamper check: nothing found in 3 files changed since \`main\``)).toBe(true);
    expect(text).toContain('| lint | ✅ passed | 2.1s |');
    expect(text).toContain('| docs | ➖ not run (GATE_SKIP) |  |');
  });

  it("gives each red gate's first five failures, marks the old ones, and says how many more", () => {
    const { text } = body([]);
    expect(text).toContain(
      [
        '**types**: failed (exit 1)',
        '',
        "- `src/a.ts:1` TS2304: Cannot find name 'x0'. _(failed before this change too)_",
        "- `src/a.ts:2` TS2304: Cannot find name 'x1'.",
        "- `src/a.ts:3` TS2304: Cannot find name 'x2'.",
        "- `src/a.ts:4` TS2304: Cannot find name 'x3'.",
        "- `src/a.ts:5` TS2304: Cannot find name 'x4'.",
        '- … and 2 more (the job summary has them)',
      ].join('\n'),
    );
    // A gate that named no failure: what the agent would read of it, fenced, its words untouched.
    expect(text).toContain('**crash**: failed (exit 1)\n\n```text\n$ run crash\nError: <config> | broke\n```');
  });

  it('lists the tamper findings, and ends with the commit, the tree, the config and the receipt digest', () => {
    const { text, receipt } = body([{ path: 'src/a.test.ts', line: 5, kind: 'skip', detail: 'adds it.skip(' }]);
    expect(text).toContain('**tamper check**: 1 finding, blocking\n\n- `src/a.test.ts:5` adds it.skip(');
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      `<sub>commit \`bbbbbbbbbbbb\`, tree \`0123456789abcdef\`, config \`fedcba9876543210\`, receipt digest \`${receipt.digest}\` · stopgate 9.9.9</sub>`,
    );
  });
});
