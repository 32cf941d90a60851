import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findMergeBase } from '../ci/merge-base.js';
import { judgeCi, type CiRun, type CiTamper, type TamperMode } from '../ci/judge-ci.js';
import { ciHeadline, ciJson, ciReport, ciSummary } from '../ci/render-ci.js';
import { scanSince } from '../ci/scan-since.js';
import { judgeSession } from '../stats/judge-session.js';
import { readStopRecords } from '../state/read-stop-log.js';
import { isTamperKind, type TamperFinding } from '../tamper/tamper-finding.js';
import { SetupError, UsageError } from '../errors.js';
import type { Repo } from '../git/find-repo.js';
import { selectGates } from '../plan/select-gates.js';
import { leaveToPackages } from '../plan/leave-to-packages.js';
import { describeResult, type GateRow } from '../report/gate-table.js';
import type { GateResult } from '../runner/gate-result.js';
import { runGates } from '../runner/run-gates.js';
import { formatMs } from '../report/format-units.js';
import { rememberResults } from '../verdict/remember-results.js';
import { stateKeyNow } from '../start/start-state.js';
import type { CiReportOptions } from './ci-reports.js';
import { changeSinceBaseline, openProject, openTree } from './open-project.js';

export const CI_USAGE = 'usage: gate ci [--base REF] [--json FILE] [--summary FILE] [--tamper block|warn|off] [--sarif FILE] [--junit FILE] [--codequality FILE] [--comment FILE]';
const FILE_OPTIONS = { sarif: { type: 'string' }, junit: { type: 'string' }, codequality: { type: 'string' }, comment: { type: 'string' } } as const;
// People read a job summary, not an agent: room for more than the stop's budget.
const CI_BUDGET = 20_000;

/**
 * `gate ci`: every gate in full (no fast tier, no verdict cache, a fresh `{cache}`), and the tamper
 * check over the change since the merge base with `--base`. Exit 0 green, 1 a gate failed or the
 * tamper check blocks. No session state. docs/receipts-and-ci.md.
 */
export async function ciCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = parseCiArgs(args);
  const project = openProject(process.cwd());
  const { repo } = project;
  if (!repo) throw new SetupError('gate ci runs in a git checkout: the tamper check reads the change from git');
  // Before the gates: a base that can't be found fails in a second, not after the whole suite.
  const mergeBase = options.base === undefined ? undefined : await findMergeBase(repo.root, options.base);
  const mode: TamperMode = options.tamper ?? (project.config.tamper === 'off' ? 'off' : 'block');

  const tree = await openTree(project, { paths: [], all: true });
  const skip = new Set((env['GATE_SKIP'] ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  const selections = leaveToPackages(selectGates(tree.gates, { paths: [], all: true }, repo.root, tree.scopes, skip, undefined));
  // The tree the gates start on: a later stop that starts from it knows each gate's failures there
  // (none, when ci was green) without running a copy of it.
  const { snapshot } = await changeSinceBaseline(project);
  const cacheDir = mkdtempSync(join(tmpdir(), 'gate-ci-cache-'));
  let results: GateResult[];
  let tamper: CiTamper;
  try {
    [results, tamper] = await Promise.all([
      runGates({ selections, concurrency: tree.root.concurrency, projectDir: project.projectDir, logDir: join(project.stateDir, 'ci', 'logs'), cacheDir, env, onDone: printDone }),
      scanTamper(repo, mode, options.base, mergeBase, project.stateDir),
    ]);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  if (snapshot) rememberResults(project.stateDir, stateKeyNow(snapshot.digest, [repo.root, project.projectDir], env), results);
  const rows: GateRow[] = selections.map((selection) => {
    const result = results.find((candidate) => candidate.name === selection.gate.name);
    return result
      ? { name: result.name, status: result.status, outcome: describeResult(result), durationMs: result.durationMs }
      : { name: selection.gate.name, status: 'not-run', outcome: `not run (${selection.reason})`, durationMs: 0 };
  });
  const run: CiRun = { rows, results, tamper };
  const verdict = judgeCi(run);
  const report = ciReport(run, verdict, Math.max(CI_BUDGET, tree.root.budget), project.projectDir);
  if (options.sarif || options.junit || options.codequality || options.comment || env['GITHUB_ACTIONS'] === 'true') {
    const { makeCiReports } = await import('./ci-reports.js');
    const annotations = makeCiReports(options, { project, repo, gates: tree.gates, hashes: tree.hashes, results, run, verdict, snapshot, mergeBase, env });
    if (annotations.length > 0) process.stdout.write(`${annotations.join('\n')}\n`);
  }
  process.stdout.write(`${ciHeadline(run, verdict)}\n${report === '' ? '' : `\n${report}`}`);
  const summary = options.summary ?? env['GITHUB_STEP_SUMMARY'];
  if (summary) writeOut(summary, ciSummary(run, verdict, report), summary === env['GITHUB_STEP_SUMMARY']);
  if (options.json) writeOut(options.json, `${JSON.stringify(ciJson(run, verdict, report), null, 2)}\n`, false);
  return verdict.ok ? 0 : 1;
}

async function scanTamper(repo: Repo, mode: TamperMode, ref: string | undefined, mergeBase: string | undefined, stateDir: string): Promise<CiTamper> {
  const base = ref !== undefined && mergeBase !== undefined ? { ref, mergeBase } : undefined;
  if (mode === 'off') return { mode, base, findings: [], incomplete: undefined, changedFiles: 0, recorded: undefined };
  const scan = base ? await scanSince(repo, base.mergeBase) : { findings: [], incomplete: undefined, changedFiles: 0 };
  const recorded = recordedTampering(stateDir, scan.findings);
  return { mode, base, findings: scan.findings, incomplete: scan.incomplete, changedFiles: scan.changedFiles, recorded };
}

/**
 * What an agent's stops let through in this checkout (a pipeline that runs the agent, then
 * `gate ci`): a test rewritten to the value the code returned shows in no diff, only in the stop
 * that saw it fail before. The latest session's, less what the diff found again.
 */
function recordedTampering(stateDir: string, found: TamperFinding[]): CiTamper['recorded'] {
  const verdict = judgeSession(readStopRecords(stateDir));
  if (verdict.session === null || verdict.tamper.length === 0) return undefined;
  const seen = new Set(found.map(findingKey));
  const findings = verdict.tamper.flatMap((finding) => (isTamperKind(finding.kind) && !seen.has(findingKey(finding)) ? [{ ...finding, kind: finding.kind }] : []));
  return findings.length === 0 ? undefined : { session: verdict.session, findings };
}

function findingKey(finding: { path: string; line?: number; detail: string }): string {
  return `${finding.path}\0${finding.line ?? ''}\0${finding.detail}`;
}

// The log of a CI job: one line per gate as it ends, on stderr so that stdout stays the result.
function printDone(result: GateResult): void {
  process.stderr.write(`${result.status === 'passed' ? '✔' : result.status === 'skipped' ? '-' : '✖'} ${result.name}  ${describeResult(result)}  ${formatMs(result.durationMs)}\n`);
}

// GitHub's step summary is one file per step that every command in it appends to.
function writeOut(path: string, text: string, append: boolean): void {
  try {
    if (append) appendFileSync(resolve(path), text);
    else writeFileSync(resolve(path), text);
  } catch (error) {
    throw new SetupError(`cannot write ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function parseCiArgs(args: string[]): CiReportOptions & { base?: string; json?: string; summary?: string; tamper?: TamperMode } {
  let values: CiReportOptions & { base?: string; json?: string; summary?: string; tamper?: string };
  try {
    values = parseArgs({ args, options: { base: { type: 'string' }, json: { type: 'string' }, summary: { type: 'string' }, tamper: { type: 'string' }, ...FILE_OPTIONS } }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${CI_USAGE}`);
  }
  const { tamper } = values;
  if (tamper !== undefined && !isMode(tamper)) throw new UsageError(`--tamper is block, warn or off, got "${tamper}"; ${CI_USAGE}`);
  for (const name of ['json', 'summary', 'sarif', 'junit', 'codequality', 'comment'] as const) if (values[name] === '') throw new UsageError(`--${name} takes a file; ${CI_USAGE}`);
  return { ...values, tamper };
}

function isMode(value: string): value is TamperMode {
  return value === 'block' || value === 'warn' || value === 'off';
}
