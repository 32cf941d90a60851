import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { findRootConfig } from '../config/find-config.js';
import { rawTamperSetting } from '../config/tamper-setting.js';
import { SetupError, UsageError } from '../errors.js';
import { findRepo } from '../git/find-repo.js';
import { judgeSession, none, type SessionVerdict } from '../stats/judge-session.js';
import { renderVerdict, VERDICT_EXIT } from '../stats/render-verdict.js';
import { sessionReportPath } from '../state/session-report.js';
import { readStopLog } from '../state/read-stop-log.js';
import { stopLogPath } from '../state/stop-log.js';
import type { StopRecord } from '../state/stop-record.js';
import { sessionFileName } from '../state/session-file-name.js';
import { locateStateDir } from './log.js';

const USAGE = 'usage: gate verdict [--session ID] [--json]';

/**
 * `gate verdict`: did the session's last stop end green (0), let through red (1), or is there no
 * record (2)? For a pipeline after a headless agent run (docs/ci-verdict.md).
 */
export function verdictCommand(args: string[]): number {
  let values: { session?: string; json: boolean };
  try {
    values = parseArgs({ args, options: { session: { type: 'string' }, json: { type: 'boolean', default: false } } }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${USAGE}`);
  }
  if (values.session === '') throw new UsageError(`--session takes a session id; ${USAGE}`);
  const warnings: string[] = [];
  const { verdict, stateDir } = judge(values.session, warnings);
  const reportPath = stateDir !== undefined && verdict.session !== null && verdict.verdict !== 'none' ? sessionReportPath(stateDir, verdict.session) : undefined;
  const report = reportPath !== undefined && existsSync(reportPath) ? reportPath : null;
  for (const warning of warnings) process.stderr.write(`gate: warning: ${warning}\n`);
  if (values.json) {
    const { session, time, harness, verdict: word, kind, reason, gates, tamper } = verdict;
    process.stdout.write(`${JSON.stringify({ session, time, harness, verdict: word, kind, reason, gates, tamper, report, warnings }, null, 2)}\n`);
  } else {
    process.stdout.write(`${renderVerdict(verdict, report === null ? null : relative(process.cwd(), report) || report)}\n`);
  }
  return VERDICT_EXIT[verdict.verdict];
}

function judge(session: string | undefined, warnings: string[]): { verdict: SessionVerdict; stateDir?: string } {
  let stateDir: string;
  try {
    stateDir = locateStateDir(process.cwd());
  } catch (error) {
    if (error instanceof SetupError) return { verdict: none('no-log', session ?? null, 'not in a git repository, and no gate.config.json here: no stops are recorded') };
    throw error;
  }
  const log = readStopLog(stateDir);
  const where = relative(process.cwd(), stopLogPath(stateDir)) || stopLogPath(stateDir);
  if (log.problem !== undefined) return { verdict: none('no-log', session ?? null, log.problem), stateDir };
  if (log.missing) return { verdict: none('no-log', session ?? null, `no stop log (${where}): the hook has not decided a stop in this repository; is it installed, and does the harness run it (trust, approval)?`), stateDir };
  if (log.unreadable > 0) {
    const newest = log.newestUnreadable ? '; the newest line is one of them, so the latest stop may be missing' : '';
    warnings.push(`${log.unreadable} ${log.unreadable === 1 ? 'line' : 'lines'} of ${where} could not be read (torn, or not a stop record) and ${log.unreadable === 1 ? 'was' : 'were'} skipped${newest}`);
  }
  return { verdict: judgeSession(log.records, session ?? ownSession(log.records, process.env, warnings), { tamperOff: tamperOff(process.cwd()) }), stateDir };
}

/**
 * Run by an agent (its shell, a hook), `gate verdict` judges that agent's own session, which its
 * harness names in the environment — when the log has stops of it: a variable inherited from
 * another session around a headless run would name one that never stopped here.
 */
function ownSession(records: StopRecord[], env: NodeJS.ProcessEnv, warnings: string[]): string | undefined {
  const named = env['CLAUDE_CODE_SESSION_ID'];
  if (named === undefined || named === '') return undefined;
  if (records.some((record) => record.session === sessionFileName(named))) return named;
  warnings.push(`CLAUDE_CODE_SESSION_ID names session ${named}, which has no stop in this log; judging the session whose stop ended last (pass --session to choose)`);
  return undefined;
}

/** Read as the hook reads it, without validating the config: the log is wanted most when something is wrong. */
function tamperOff(cwd: string): boolean {
  const files = findRootConfig(cwd, findRepo(cwd)?.root);
  return files !== undefined && rawTamperSetting(files) === 'off';
}
