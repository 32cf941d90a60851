import { relative } from 'node:path';
import { describeOutcome } from '../report/describe-outcome.js';
import { filterOutput } from '../filters/filter-output.js';
import { isFileNow, placeTaskPaths, projectDirsOf } from '../report/place-task-paths.js';
import { short } from '../receipt/judge-receipt.js';
import { gateTable } from '../report/gate-table.js';
import { renderReport } from '../report/render-report.js';
import { describeTampering } from '../tamper/describe-tampering.js';
import type { CiRun, CiVerdict } from './judge-ci.js';

const TAMPER_TITLE = 'tamper check: this change skips, deletes or weakens tests or checks';
const RECORDED_TITLE = "tamper check: let through by the agent's stops in this checkout";

/** One line: the verdict, the gates, the tamper check. */
export function ciHeadline(run: CiRun, verdict: CiVerdict): string {
  return `gate ci: ${verdict.ok ? 'PASS' : 'FAIL'} — ${describeGates(run, verdict)}; ${describeScan(run, '')}`;
}

/** The report the stop would give, for everything that failed; '' when nothing did. */
export function ciReport(run: CiRun, verdict: CiVerdict, budget: number, projectDir: string): string {
  const { findings, recorded } = run.tamper;
  if (verdict.red.length === 0 && findings.length === 0 && !recorded) return '';
  const names = verdict.red.map((result) => result.name).join(', ');
  const ran = run.results.filter((result) => result.status !== 'skipped').length;
  return renderReport({
    header: verdict.red.length > 0 ? `gate ci: ${verdict.red.length} of ${ran} checks failed (${names}).` : 'gate ci: every check passed, but the change skips, deletes or weakens tests or checks.',
    failed: verdict.red.map((result) => ({
      name: result.name,
      command: result.command,
      outcome: describeOutcome(result),
      filtered: placeTaskPaths(filterOutput(result.filter, result.output), projectDirsOf(projectDir), isFileNow),
      log: relative(projectDir, result.logPath),
    })),
    gateCount: ran,
    block: 0,
    maxBlocks: 0,
    budget,
    sections: [
      ...(findings.length > 0 ? [{ title: TAMPER_TITLE, lines: describeTampering(findings, 50) }] : []),
      ...(recorded ? [{ title: `${RECORDED_TITLE} (session ${recorded.session})`, lines: describeTampering(recorded.findings, 50) }] : []),
    ],
  });
}

/** The job summary: the verdict, the gates as a table, then the report (which lists the tamper findings). */
export function ciSummary(run: CiRun, verdict: CiVerdict, report: string): string {
  const lines = [`## gate ci: ${verdict.ok ? '✅ PASS' : '❌ FAIL'}`, '', ciVerdictLine(run, verdict), '', ...gateTable(run.rows)];
  if (report !== '') lines.push('', '### Report', '', ...fenced(report.trimEnd()));
  return `${lines.join('\n')}\n`;
}

/** The gates and the tamper check in one line of Markdown. */
export function ciVerdictLine(run: CiRun, verdict: CiVerdict): string {
  return `${describeGates(run, verdict)}; ${describeScan(run, '`')}`;
}

export function ciJson(run: CiRun, verdict: CiVerdict, report: string): object {
  const { tamper } = run;
  return {
    ok: verdict.ok,
    failed: verdict.red.map((result) => result.name),
    gates: run.rows.map((row) => {
      const result = run.results.find((candidate) => candidate.name === row.name);
      return { ...row, command: result?.command ?? null, exitCode: result?.exitCode ?? null };
    }),
    tamper: {
      mode: tamper.mode,
      base: tamper.base ?? null,
      changedFiles: tamper.changedFiles,
      blocking: verdict.tamperBlocks,
      findings: tamper.findings,
      incomplete: tamper.incomplete ?? null,
      recorded: tamper.recorded ?? null,
    },
    report,
  };
}

function describeGates(run: CiRun, verdict: CiVerdict): string {
  const ran = run.results.filter((result) => result.status !== 'skipped').length;
  if (verdict.red.length > 0) return `${verdict.red.length} of ${ran} gates failed (${verdict.red.map((result) => result.name).join(', ')})`;
  return `${ran} ${ran === 1 ? 'gate' : 'gates'} passed`;
}

function describeScan(run: CiRun, quote: string): string {
  const { mode, recorded } = run.tamper;
  const stops = recorded ? `; ${count(recorded.findings.length, 'finding')} let through by the agent's stops (session ${recorded.session})${mode === 'block' ? ', blocking' : ', warn only'}` : '';
  return `${describeDiffScan(run, quote)}${stops}`;
}

function describeDiffScan(run: CiRun, quote: string): string {
  const { mode, base, findings, incomplete, changedFiles } = run.tamper;
  if (mode === 'off') return 'tamper check: off';
  if (!base) return 'tamper check: not run (no --base)';
  const where = `${changedFiles} ${changedFiles === 1 ? 'file' : 'files'} changed since ${quote}${base.ref}${quote} (merge base ${quote}${short(base.mergeBase)}${quote})`;
  const found = findings.length === 0 ? `nothing found in ${where}` : `${findings.length} ${findings.length === 1 ? 'finding' : 'findings'} in ${where}${mode === 'block' ? ', blocking' : ', warn only'}`;
  return `tamper check: ${found}${incomplete ? `; incomplete: ${incomplete}` : ''}`;
}

function count(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

// Longer than any run of backticks inside: a tool's output must not close the block.
function fenced(text: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}text`, text, fence];
}
