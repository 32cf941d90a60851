import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { findRepo } from '../git/find-repo.js';
import { collectHistory } from '../history/collect-history.js';
import { renderHistory } from '../history/render-history.js';

const USAGE = 'usage: gate history [--since DATE] [--all-projects] [--json]';

/**
 * `gate history`: of the agents' turns that edited files and ended, how many had a passing check
 * after the last edit, read from the transcripts on disk and gate's stop log (docs/history.md).
 */
export function historyCommand(args: string[], env: Record<string, string | undefined>): number {
  let values: { since?: string; 'all-projects': boolean; json: boolean };
  try {
    values = parseArgs({ args, options: { since: { type: 'string' }, 'all-projects': { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${USAGE}`);
  }
  const since = values.since === undefined ? undefined : Date.parse(values.since);
  if (since !== undefined && Number.isNaN(since)) throw new UsageError(`--since takes a date (2025-06-01, or 2025-06-01T09:00Z), got "${values.since}"; ${USAGE}`);
  const cwd = process.cwd();
  const root = values['all-projects'] ? undefined : (findRepo(cwd)?.root ?? cwd);
  const summary = collectHistory({ root, since, env, home: env['HOME'] || homedir() });
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ scope: root ?? null, since: since === undefined ? null : new Date(since).toISOString(), ...summary }, null, 2)}\n`);
  } else {
    const where = root === undefined ? 'every project' : `transcripts of ${root}`;
    process.stdout.write(`${renderHistory(summary, since === undefined ? where : `${where}, since ${new Date(since).toISOString()}`)}\n`);
  }
  return 0;
}
