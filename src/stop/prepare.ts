// The stop's first phase: the config (layered, cached), the time it may take, and the lock that makes
// it the one run checking this state of the tree.
import { basename } from 'node:path';
import { hookTimeoutSeconds } from './hook-timeout.js';
import type { StopContext } from './stop-context.js';
import { ConfigError } from '../config/config-problem.js';
import { type ConfigTree, loadConfigTree } from '../config/config-tree.js';
import { listConfigDirs } from '../config/list-config-dirs.js';
import { gitSpentMs, limitGit } from '../git/exec-git.js';
import { messages } from '../messages.js';
import { gatesDeadline, gitLimitAt, spentByGit } from '../plan/hook-time.js';
import { stopBudgetSeconds } from '../plan/stop-budget.js';
import { loadConfigCached } from '../state/config-cache.js';
import { type RunningStopRecord, recordRunningStop } from '../state/running-stop.js';
import { lockStop } from '../state/stop-lock.js';

/** What a kill must clean up: set as the stop takes it. */
export interface Held {
  running?: RunningStopRecord;
  release?: () => void;
}

/** Answered already (an invalid config, an ungated subagent, a stop another run checked), or ready to run its gates. */
export type Prepared = { kind: 'answered'; code: number } | { kind: 'ready'; stop: StopContext; tree: ConfigTree; end: () => void };

export async function prepareStop(stop: StopContext, held: Held): Promise<Prepared> {
  const { output, snapshot } = stop;
  let tree: ConfigTree;
  try {
    tree = await loadConfigTree({
      repoRoot: stop.root,
      rootFiles: stop.configFiles,
      change: stop.change,
      load: (files) => loadConfigCached(stop.stateDir, files, stop.projectDir),
      env: stop.env,
      ...(snapshot ? { listConfigDirs: () => listConfigDirs(stop.root) } : {}),
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      stop.trace.reason = 'config invalid';
      return { kind: 'answered', code: output.notice(messages.configInvalid(error.message)) };
    }
    throw error;
  }
  const config = tree.root;
  stop.trace.reason = 'subagents are not gated';
  if (stop.payload.event === 'subagent-stop' && !config.subagents) return { kind: 'answered', code: output.allow() };

  const budgetMs = stopBudgetSeconds(tree.gates, config.declaredConcurrency) * 1000;
  // From when the gates begin (slow git before them spends the hook's margin, not a gate's timeout),
  // within the hook's own: the harness's timeout never ends a stop, nor a git call in it.
  const hookStart = Math.round(performance.timeOrigin);
  const event = stop.payload.event === 'subagent-stop' ? 'SubagentStop' : 'Stop';
  const hookTimeout = await hookTimeoutSeconds({ harness: stop.trace.harness, event, projectDir: stop.projectDir, configFiles: stop.configFiles, stateDir: stop.stateDir, budgetSeconds: budgetMs / 1000 });
  limitGit({ at: gitLimitAt(hookStart, hookTimeout) });
  const deadline = gatesDeadline({ hookStart, gatesStart: Date.now(), budgetMs, hookTimeoutSeconds: hookTimeout });
  const outOfTime = spentByGit(gitSpentMs());
  const lock = await lockStop(`${stop.sessionFile}.lock`, snapshot?.digest ?? 'outside-git', budgetMs + 30_000);
  stop.trace.reason = 'the same stop was checked by another run';
  if (lock.kind === 'answered-elsewhere') return { kind: 'answered', code: output.allow() };
  held.release = lock.release;
  const running = recordRunningStop(stop.stateDir, basename(stop.sessionFile, '.json'));
  held.running = running;
  const end = () => {
    running.end();
    lock.release();
  };
  return { kind: 'ready', stop: { ...stop, notices: [...stop.notices, ...tree.notices], running, deadline, ...(outOfTime ? { outOfTime } : {}) }, tree, end };
}
