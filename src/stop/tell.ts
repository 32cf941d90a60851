// The stop's phase that tells: the report the agent reads at a block, and the notices for the human.
import { failuresKey } from '../report/repeat-report.js';
import { relative, resolve } from 'node:path';
import type { ResolvedConfig, ResolvedGate } from '../config/load-config.js';
import { describeOutcome } from '../report/describe-outcome.js';
import type { StopDecision } from './decide-stop.js';
import { filterOutput } from '../filters/filter-output.js';
import { projectRunner } from '../package/package-manager.js';
import { messages } from '../messages.js';
import { renderReportWithin } from '../report/render-report.js';
import { dropKnownFailures } from '../report/drop-known-failures.js';
import { placeGoTestFiles } from '../report/place-go-test-files.js';
import { isFileNow, placeTaskPaths, projectDirsOf } from '../report/place-task-paths.js';
import type { GateResult } from '../runner/gate-result.js';
import { describeTampering } from '../tamper/describe-tampering.js';
import type { TamperFinding } from '../tamper/tamper-finding.js';
import type { Judgement } from '../verdict/judge-failures.js';
import type { StopContext } from './stop-context.js';
import type { Judged } from './judge.js';

const TAMPER_TITLE = 'tamper check: this change skips, deletes or weakens tests or checks';
const TAMPER_LEAD = 'Undo these unless the user asked for them:';
const NOT_EDITED_TITLE = 'changed during this turn, not by your edits';
const NOT_EDITED_LEAD = 'Another session, a person or a command you ran changed these. If you did not, leave them to whoever is editing them and tell the user:';

/**
 * What this stop found, as the agent reads it at a block (`block`: its number), or, for a stop let
 * through red (`block` undefined), under a first line that refuses nothing.
 */
export function renderStopReport(
  stop: StopContext,
  config: ResolvedConfig,
  decision: StopDecision,
  results: GateResult[],
  judged: Judged,
  tampering: TamperFinding[],
  block: number | undefined,
  notEdited: string[] = [],
  gates: ResolvedGate[] = [],
): string {
  const unchecked = notChecked(decision.noVerdict);
  // A stop allowed red shows the gates red before the turn, in full: none of it is the agent's.
  const failed = decision.kind === 'allow' ? decision.preExisting : decision.failed;
  const old = (name: string) => (decision.kind === 'allow' ? [] : (judged.oldIds.get(name) ?? []));
  const gateCount = results.filter((result) => result.status !== 'skipped').length;
  const projectDirs = projectDirsOf(stop.projectDir);
  const report = renderReportWithin(stop.reportBytes === undefined ? undefined : stop.reportBytes - Buffer.byteLength(unchecked), {
    failed: failed.map((result) => ({
      name: result.name,
      command: result.command,
      outcome: describeOutcome(result),
      cwd: gates.find((gate) => gate.name === result.name)?.cwd,
      filtered: placeTaskPaths(shownOutput(result, old(result.name), judged, projectRunner(stop.projectDir)), projectDirs, isFileNow),
      log: relative(stop.projectDir, result.logPath),
      notes: [
        ...(judged.notes.get(result.name) ?? []),
        ...transientNote(judged.transient.get(result.name)),
        ...loadFlakyNote(judged.loadLeftOut.get(result.name)),
        ...(result.status === 'timed-out' && config.onTimeout === 'once' ? [messages.timedOutOnce(result.timeoutSeconds, judged.lastRuns.has(result.name))] : []),
      ],
    })),
    gateCount,
    changed: stop.change.paths.map((path) => resolve(stop.root, path)),
    block: block ?? 0,
    maxBlocks: config.maxBlocks,
    budget: config.budget,
    ...(block === undefined ? { header: messages.letThroughHeader(failed.map((result) => result.name), gateCount) } : {}),
    sections: [
      ...(tampering.length > 0 ? [{ title: TAMPER_TITLE, lines: [TAMPER_LEAD, ...describeTampering(tampering)] }] : []),
      ...(notEdited.length > 0 ? [{ title: NOT_EDITED_TITLE, lines: [NOT_EDITED_LEAD, ...notEdited.slice(0, 10), ...(notEdited.length > 10 ? [`… and ${notEdited.length - 10} more`] : [])] }] : []),
      ...(decision.preExisting.length > 0 && decision.kind !== 'allow' ? [{ title: 'failing before this turn too (not blocking)', lines: decision.preExisting.map((result) => `${result.name}: ${judged.notes.get(result.name)?.join(' ') ?? ''}`) }] : []),
    ],
  });
  return report + unchecked;
}

/**
 * A failed gate's output as its report shows it: without the failures from before the turn, nor those
 * in files another gate made; a fix it names runs through `runner` (the project's: `pnpm exec` …);
 * go test's bare file names said from the gate's folder.
 */
export function shownOutput(result: GateResult, old: string[], judged: Judged, runner?: string) {
  const filtered = placeGoTestFiles(filterOutput(result.filter, result.output, runner), judged.root, judged.cwdOf(result.name), isFileNow);
  return dropKnownFailures(filtered, new Set([...old, ...(judged.transient.get(result.name) ?? []), ...(judged.loadLeftOut.get(result.name) ?? [])]));
}

/** What identifies this block's failures for a repeat, when its report is nothing but them (src/report/repeat-report.ts). */
export function blockKey(decision: StopDecision & { kind: 'block' }, judged: Judged, tampering: TamperFinding[]) {
  const gates = decision.failed.map((result) => ({ name: result.name, failures: shownOutput(result, judged.oldIds.get(result.name) ?? [], judged).failures }));
  const plain = tampering.length === 0 && decision.noVerdict.length === 0 && decision.preExisting.length === 0;
  return { gates, key: plain ? failuresKey(gates) : undefined };
}

function transientNote(ids: string[] | undefined): string[] {
  return ids === undefined ? [] : [messages.transientLeftOut(ids)];
}

function loadFlakyNote(ids: string[] | undefined): string[] {
  return ids === undefined || ids.length === 0 ? [] : [messages.loadFlakyLeftOut(ids)];
}

/**
 * What the human is told about the gates besides the decision. One stop, one decision, said once:
 * a block, an escape or a stop let through because the agent asked say it in their own notice, and
 * on a plain allow only the first of these does.
 */
export function noticesFor(decision: StopDecision, judged: Judgement): string[] {
  const notices: string[] = [];
  const allowed = () => decision.kind === 'allow' && notices.length === 0;
  const noVerdict = decision.noVerdict.map((result) => `${result.name} (${describeOutcome(result)})`);
  if (noVerdict.length > 0) notices.push(messages.noVerdict(noVerdict, allowed()));
  if (decision.preExisting.length > 0) notices.push(messages.preExisting(decision.preExisting.map((result) => result.name), allowed()));
  if (judged.flaky.length > 0) notices.push(messages.flaky(judged.flaky, allowed()));
  return notices;
}

function notChecked(results: GateResult[]): string {
  if (results.length === 0) return '';
  return `(Not checked this time: ${results.map((result) => `${result.name}, ${describeOutcome(result)}`).join('; ')}.)\n`;
}
