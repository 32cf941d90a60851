import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { findConfig, TEAM_FILE } from '../config/find-config.js';
import { SetupError, UsageError } from '../errors.js';
import { findRepo, stateDirOf } from '../git/find-repo.js';
import { renderStopLog } from '../stats/render-stop-log.js';
import { outsideGitStateDir } from '../state/outside-git-state-dir.js';
import { readStopRecords } from '../state/read-stop-log.js';
import { stopLogPath } from '../state/stop-log.js';

const USAGE = 'usage: gate log [-n N] [--json]';

/** `gate log`: the last N stops the hook decided, newest at the bottom. */
export function logCommand(args: string[]): number {
  let values: { n: string; json: boolean };
  try {
    values = parseArgs({ args, options: { n: { type: 'string', short: 'n', default: '20' }, json: { type: 'boolean', default: false } } }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${USAGE}`);
  }
  if (!/^[1-9]\d*$/.test(values.n)) throw new UsageError(`-n takes a positive whole number, got "${values.n}"; ${USAGE}`);
  const stateDir = locateStateDir(process.cwd());
  const all = readStopRecords(stateDir);
  const shown = all.slice(-Number(values.n));
  if (values.json) process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  else if (all.length === 0) process.stdout.write(`${noStopsYet(stateDir)}\n`);
  else process.stdout.write(`${renderStopLog(shown, all.length)}\n`);
  return 0;
}

/**
 * The state dir as the hook finds it, without needing a valid config: the log is most wanted when
 * something is wrong, and a broken config is one of those times.
 */
export function locateStateDir(cwd: string): string {
  const repo = findRepo(cwd);
  if (repo) return stateDirOf(repo);
  const configFiles = findConfig(cwd, undefined);
  if (configFiles) return outsideGitStateDir(configFiles.dir);
  throw new SetupError(`not in a git repository and no ${TEAM_FILE} here, so there are no recorded stops to show`);
}

export function noStopsYet(stateDir: string): string {
  return `No stops recorded yet (${relative(process.cwd(), stopLogPath(stateDir)) || stopLogPath(stateDir)}). The hook records each stop it decides.`;
}
