import { execFile } from 'node:child_process';
import { basename } from 'node:path';
import { graphLines } from '../filters/task-runner/turbo-graph.js';
import { withLocalBins } from './spawn-group.js';

const MAX_MS = 30_000;

/**
 * Whether a failed command is `turbo run … --continue=dependencies-successful`, argv form: turbo
 * then skips the tasks that wait on a failed one and never names them.
 */
export function skipsDependents(argv: readonly string[], shell: boolean): boolean {
  if (shell || argv.some((word) => word.startsWith('--dry') || word === '--graph' || word.startsWith('--graph='))) return false;
  const at = argv.findIndex((word, index) => basename(word) === 'turbo' && argv[index + 1] === 'run');
  if (at < 0) return false;
  return argv.some((word, index) => word === '--continue=dependencies-successful' || (word === '--continue' && argv[index + 1] === 'dependencies-successful'));
}

/**
 * turbo's dry run of the same command (`--dry=json`: the tasks it would run and what each waits on,
 * nothing run, nothing written), as the lines gate adds to the failed run's output. Undefined when it
 * fails or takes too long: the report then has turbo's totals alone.
 */
export function turboDryRun(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, leftMs: number): Promise<string[] | undefined> {
  const [program = 'turbo', ...args] = argv;
  const timeout = Math.min(MAX_MS, leftMs);
  if (timeout < 1000) return Promise.resolve(undefined);
  const path = withLocalBins(env['PATH'] ?? '', cwd);
  return new Promise((resolve) => {
    execFile(program, [...args, '--dry=json'], { cwd, env: { ...env, PATH: path }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout, killSignal: 'SIGKILL' }, (error, stdout) => {
      if (error) return resolve(undefined);
      try {
        resolve(graphLines(stdout));
      } catch {
        resolve(undefined);
      }
    });
  });
}
