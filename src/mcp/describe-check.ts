import { relative } from 'node:path';
import { describeOutcome } from '../report/describe-outcome.js';
import type { OnTimeout } from '../config/defaults.js';
import { timeoutCounts } from '../verdict/timeout-counts.js';
import type { Filtered } from '../filters/filter.js';
import { filterOutput } from '../filters/filter-output.js';
import { isFileNow, placeTaskPaths, projectDirsOf } from '../report/place-task-paths.js';
import { renderReport } from '../report/render-report.js';
import type { GateResult } from '../runner/gate-result.js';
import type { CheckRun } from '../commands/check-gates.js';
import type { CheckStatus, CheckSummary } from './check-summary.js';

/**
 * A check as the model reads it: the failed gates in the very report a refused stop gives (one
 * renderer, one budget), under a first line that says what this is; and the same as data.
 */
export function describeCheck(run: CheckRun, projectDir: string, budget: number, onTimeout: OnTimeout): { text: string; summary: CheckSummary } {
  const filtered = new Map(run.failed.map((result) => [result.name, filterOutput(result.filter, result.output)]));
  const noVerdict = run.results.filter((result) => result.status === 'not-started' || (result.status === 'timed-out' && !timeoutCounts(result, onTimeout)));
  const ran = run.results.filter((result) => result.status !== 'skipped');
  const status: CheckStatus = run.failed.length > 0 ? 'failed' : noVerdict.length > 0 ? 'no-verdict' : ran.length === 0 ? 'nothing-to-check' : 'passed';
  const summary: CheckSummary = {
    status,
    ok: run.failed.length === 0,
    baseline: run.baseline ?? null,
    changedFiles: run.changedFiles,
    gates: run.results.map((result) => ({
      name: result.name,
      status: result.status,
      outcome: result.status === 'passed' ? 'passed' : result.status === 'skipped' ? `skipped (${result.detail ?? ''})` : describeOutcome(result),
      command: result.command,
      durationMs: result.durationMs,
      exitCode: result.exitCode ?? null,
      log: relative(projectDir, result.logPath),
      failures: filtered.get(result.name)?.failures ?? [],
    })),
  };
  return { text: textOf(run, ran, status, noVerdict, filtered, projectDir, budget), summary };
}

function textOf(run: CheckRun, ran: GateResult[], status: CheckStatus, noVerdict: GateResult[], filtered: Map<string, Filtered>, projectDir: string, budget: number): string {
  const unchecked = noVerdict.length === 0 ? '' : `(Not checked: ${noVerdict.map((result) => `${result.name}, ${describeOutcome(result)}`).join('; ')}.)\n`;
  if (status === 'nothing-to-check') {
    return `gate: nothing to check: no file changed since ${run.baseline ?? 'the baseline'} triggers a check. Call gate_check with all: true to run every check.\n`;
  }
  if (status !== 'failed') {
    const passed = ran.filter((result) => result.status === 'passed').map((result) => result.name);
    return `gate: ${passed.length} of ${ran.length} checks passed${passed.length > 0 ? ` (${passed.join(', ')})` : ''}.\n${unchecked}`;
  }
  const names = run.failed.map((result) => result.name).join(', ');
  const report = renderReport({
    header: `gate: ${run.failed.length} of ${ran.length} checks failed (${names}).`,
    failed: run.failed.map((result) => ({
      name: result.name,
      command: result.command,
      outcome: describeOutcome(result),
      filtered: placeTaskPaths(filtered.get(result.name) ?? filterOutput(result.filter, result.output), projectDirsOf(projectDir), isFileNow),
      log: relative(projectDir, result.logPath),
    })),
    gateCount: ran.length,
    block: 0,
    maxBlocks: 0,
    budget,
  });
  return report + unchecked;
}
