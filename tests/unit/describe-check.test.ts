import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../src/commands/check-gates.js';
import { describeCheck } from '../../src/mcp/describe-check.js';
import { CLOSING } from '../../src/report/render-report.js';
import type { GateResult, GateStatus } from '../../src/runner/gate-result.js';

function result(name: string, status: GateStatus, output = ''): GateResult {
  return { name, status, command: `npx ${name}`, exitCode: status === 'failed' ? 1 : 0, signal: undefined, output, filter: 'generic', durationMs: 1200, logPath: `/repo/.git/gate/logs/${name}.log`, timeoutSeconds: 60, ...(status === 'not-started' ? { detail: 'lint not found' } : {}) };
}

function run(results: GateResult[]): CheckRun {
  return { baseline: 'HEAD', changedFiles: ['src/a.ts'], selections: [], results, failed: results.filter((r) => r.status === 'failed'), reruns: [] };
}

describe('describeCheck', () => {
  it('renders failures with the stop report under a first line that refuses nothing, and the same as data', () => {
    const { text, summary } = describeCheck(run([result('test', 'failed', 'FAIL src/a.test.ts > adds\n'), result('lint', 'passed')]), '/repo', 6000, 'allow');
    expect(text).toBe(['gate: 1 of 2 checks failed (test).', '', '## test: failed (exit 1)', '$ npx test', 'FAIL src/a.test.ts > adds', '(full log: .git/gate/logs/test.log)', '', CLOSING, ''].join('\n'));
    expect(summary).toMatchObject({ status: 'failed', ok: false, baseline: 'HEAD', changedFiles: ['src/a.ts'] });
    expect(summary.gates).toEqual([
      { name: 'test', status: 'failed', outcome: 'failed (exit 1)', command: 'npx test', durationMs: 1200, exitCode: 1, log: '.git/gate/logs/test.log', failures: [] },
      { name: 'lint', status: 'passed', outcome: 'passed', command: 'npx lint', durationMs: 1200, exitCode: 0, log: '.git/gate/logs/lint.log', failures: [] },
    ]);
  });

  it('says what passed, what gave no verdict, and when nothing was there to check', () => {
    expect(describeCheck(run([result('test', 'passed')]), '/repo', 6000, 'allow')).toMatchObject({ text: 'gate: 1 of 1 checks passed (test).\n', summary: { status: 'passed', ok: true } });
    expect(describeCheck(run([result('test', 'passed'), result('lint', 'not-started')]), '/repo', 6000, 'allow')).toMatchObject({
      text: 'gate: 1 of 2 checks passed (test).\n(Not checked: lint, could not start: lint not found.)\n',
      summary: { status: 'no-verdict', ok: true },
    });
    expect(describeCheck(run([]), '/repo', 6000, 'allow')).toMatchObject({
      text: 'gate: nothing to check: no file changed since HEAD triggers a check. Call gate_check with all: true to run every check.\n',
      summary: { status: 'nothing-to-check', ok: true, gates: [] },
    });
  });
});
