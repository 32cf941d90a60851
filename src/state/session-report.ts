import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureStateDir } from './state-files.js';

/** A report is bounded by the config's budget; this only guards against a budget set absurdly high. */
const MAX_CHARS = 256 * 1024;
/** One file per session: the oldest go once there are more. */
const MAX_FILES = 100;

export function sessionReportPath(stateDir: string, session: string): string {
  return join(stateDir, 'reports', `${session}.txt`);
}

/**
 * The last report gate gave in a session, for `gate verdict` (a CI job that wants to show what is
 * red). Owner-only like the logs, replaced whole. Writing it never changes a stop's outcome: a
 * failure is ignored.
 */
export function writeSessionReport(stateDir: string, session: string, text: string): void {
  const path = sessionReportPath(stateDir, session);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    ensureStateDir(join(stateDir, 'reports'));
    writeFileSync(temp, text.length <= MAX_CHARS ? text : `${text.slice(0, MAX_CHARS)}\n…\n`, { mode: 0o600 });
    renameSync(temp, path);
    pruneReports(join(stateDir, 'reports'));
  } catch {
    rmSync(temp, { force: true });
  }
}

/**
 * A stop let through red (an escape after maxBlocks, a question to the human): the agent is shown
 * nothing, the human is told what is red. The file holds that notice above what this stop found —
 * never an earlier block's report, which may name failures fixed since.
 */
export function noteLetThrough(stateDir: string, session: string, notice: string, report: string): void {
  writeSessionReport(stateDir, session, `${notice}\n\nWhat this last stop found (the agent was not shown it):\n\n${report}`);
}

function pruneReports(dir: string): void {
  const names = readdirSync(dir).filter((name) => name.endsWith('.txt'));
  if (names.length <= MAX_FILES) return;
  const aged = names.map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.mtime - b.mtime);
  for (const file of aged.slice(0, aged.length - MAX_FILES)) rmSync(file.path, { force: true });
}
