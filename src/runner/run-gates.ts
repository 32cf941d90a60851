import { join } from 'node:path';
import { filesToRun, type GateSelection } from '../plan/select-gates.js';
import { isTestRunner } from '../plan/test-runners.js';
import type { GateResult } from './gate-result.js';
import { gateFileName } from './gate-file-name.js';
import { runGate } from './run-gate.js';

export interface RunGatesOptions {
  selections: GateSelection[];
  concurrency: number;
  projectDir: string;
  logDir: string;
  /** Where each gate's cache folder goes (`{cache}` = cacheDir/NAME). */
  cacheDir: string;
  env: NodeJS.ProcessEnv;
  /** When the stop must be decided (epoch ms): see RunGateOptions. */
  deadline?: number;
  /** Why a gate with no time left got none, when known (see RunGateOptions). */
  outOfTime?: string;
  /**
   * At most this many test runners' gates at once (src/plan/test-runners.ts): each starts its own
   * workers. Undefined: no limit but `concurrency`.
   */
  testRunners?: number;
  /**
   * Each gate's last duration (ms): the longest start first, so that the short ones fill in beside
   * them rather than leave one running alone at the end; a gate with none starts first. Results stay in config order.
   */
  expected?: Readonly<Record<string, number>>;
  onStart?: (name: string) => void;
  onDone?: (result: GateResult) => void;
}

/** Runs the selected gates side by side, at most `concurrency` at once, the longest first; results in config order. */
export async function runGates(options: RunGatesOptions): Promise<GateResult[]> {
  const queue = options.selections.filter((selection) => selection.run);
  const results = new Array<GateResult>(queue.length);
  const next = nextGate(queue, options);
  const worker = async (): Promise<void> => {
    for (let index = await next.take(); index !== undefined; index = await next.take()) {
      const selection = queue[index];
      if (!selection) continue;
      options.onStart?.(selection.gate.name);
      const run = () =>
        runGate({
          gate: selection.gate,
          ...filesToRun(selection),
          projectDir: options.projectDir,
          logPath: join(options.logDir, `${gateFileName(selection.gate.name)}.log`),
          cacheDir: join(options.cacheDir, gateFileName(selection.gate.name)),
          env: options.env,
          deadline: options.deadline,
          ...(options.outOfTime ? { outOfTime: options.outOfTime } : {}),
          ...(selection.leaveOut ? { leaveOut: selection.leaveOut } : {}),
        });
      let result = await run();
      const first = result;
      let attempts = 1;
      while (result.status === 'failed' && attempts <= selection.gate.retries) {
        result = await run();
        attempts++;
      }
      if (first.status === 'failed' && result.status === 'passed') result = { ...result, flaky: { firstOutput: first.output, attempts } };
      results[index] = result;
      next.done(index);
      options.onDone?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, queue.length) }, worker));
  return results;
}

/**
 * The next gate a free worker starts, in config order: with `testRunners`, a test runner's gate
 * waits while that many run (the other gates go first), but no longer than it can and still have
 * its whole timeout, retries included, before the stop's deadline — the stop's time budget
 * (src/plan/stop-budget.ts) counts on `concurrency` at once, whatever they are.
 */
function nextGate(queue: GateSelection[], options: RunGatesOptions): { take: () => Promise<number | undefined>; done: (index: number) => void } {
  const expected = (index: number) => options.expected?.[queue[index]?.gate.name ?? ''] ?? Number.POSITIVE_INFINITY;
  const pending = queue.map((_, index) => index).sort((a, b) => expected(b) - expected(a) || a - b);
  const limit = options.testRunners;
  const heavy = new Set(limit === undefined ? [] : pending.filter((index) => isTestRunner(queue[index]?.gate ?? { preset: undefined, filter: '' })));
  let heavyRunning = 0;
  const waiting = new Set<() => void>();
  const latestStart = (index: number) => {
    const gate = queue[index]?.gate;
    return options.deadline === undefined || !gate ? Number.POSITIVE_INFINITY : options.deadline - gate.timeoutSeconds * (1 + gate.retries) * 1000 - START_SLACK_MS;
  };
  const startable = () => pending.findIndex((index) => !heavy.has(index) || heavyRunning < (limit ?? Number.POSITIVE_INFINITY) || Date.now() >= latestStart(index));
  return {
    async take() {
      for (;;) {
        if (pending.length === 0) return undefined;
        const at = startable();
        if (at !== -1) {
          const [index] = pending.splice(at, 1);
          if (index !== undefined && heavy.has(index)) heavyRunning++;
          return index;
        }
        // Only test runners wait: until one ends, or the first of them must start to keep its timeout.
        const soonest = Math.min(...pending.map(latestStart));
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiting.delete(wake);
            resolve();
          };
          const timer = Number.isFinite(soonest) ? setTimeout(wake, Math.max(0, soonest - Date.now())) : undefined;
          waiting.add(wake);
        });
      }
    },
    done(index) {
      if (heavy.has(index)) heavyRunning--;
      for (const wake of [...waiting]) wake();
    },
  };
}

/** A gate started this long before its latest start still gets its whole timeout (the spawn, the cut to whole seconds). */
const START_SLACK_MS = 2000;
