// The stop's phase that records what it decided, in the stop log's words (docs/log-and-stats.md).
import { askingReason } from '../asking/decide-asking.js';
import { decisionReason } from './decide-stop.js';
import { filterOutput } from '../filters/filter-output.js';
import type { GateResult } from '../runner/gate-result.js';
import type { TamperFinding } from '../tamper/tamper-finding.js';
import type { StopContext } from './stop-context.js';
import type { StopVerdict } from './decide.js';
import type { Judged } from './judge.js';

/**
 * A narrowed test run that passed without running a test ("--passWithNoTests"): right for a change no
 * test reaches, a sign of a wrong root when one should have. Said in the stop log, where it is looked for.
 */
function ranNoTest(result: GateResult): boolean {
  return result.status === 'passed' && result.narrowed === true && /^\s*No test files found, exiting with code 0|^No tests found, exiting with code 0/m.test(result.output);
}

export function traceDecision(stop: StopContext, { decision, asking, asked, letThrough }: StopVerdict, results: GateResult[], judged: Judged, tampering: TamperFinding[], blocksBefore: number): void {
  const trace = stop.trace;
  trace.path = results.some((result) => !result.cached) ? 'checked' : 'fast';
  trace.gates = results.map((result) => ({
    name: result.name,
    status: result.cached ? 'cached' : result.status,
    durationMs: result.durationMs,
    ...(result.ahead ? { ahead: true } : {}),
    ...(result.detail ? { reason: result.detail } : {}),
    ...(result.tier ? { tier: `${result.tier}${ranNoTest(result) ? '; it found no test to run' : ''}` } : {}),
    ...(result.flaky ? { flaky: filterOutput(result.filter, result.flaky.firstOutput).failures.map((failure) => failure.id) } : judged.loadFlaky.has(result.name) ? { flaky: judged.loadFlaky.get(result.name) } : {}),
    ...(judged.preExisting.has(result.name) ? { preExisting: judged.preExisting.get(result.name) } : {}),
    ...(judged.baselineMs.has(result.name) ? { baselineMs: judged.baselineMs.get(result.name) } : {}),
    ...(judged.doubts.has(result.name) ? { baselineDoubt: judged.doubts.get(result.name) } : {}),
  }));
  trace.blocks = decision.kind === 'block' ? blocksBefore + 1 : 0;
  if (tampering.length > 0) trace.tamper = { count: tampering.length, sample: tampering.slice(0, 10).map(({ path, line, kind, detail }) => ({ path, ...(line === undefined ? {} : { line }), kind, detail })) };
  if (decision.kind === 'escape') trace.outcome = 'escape';
  trace.reason = decisionReason(decision, results.length, tampering.length > 0, blocksBefore);
  if (asking !== undefined && asked !== undefined) {
    trace.reason = askingReason(asking, asked);
    if (letThrough) trace.blocks = 0;
  }
}

