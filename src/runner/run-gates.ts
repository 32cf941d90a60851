import { join } from 'node:path';
import { filesToRun, type GateSelection } from '../plan/select-gates.js';
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
  onStart?: (name: string) => void;
  onDone?: (result: GateResult) => void;
}

/** Runs the selected gates side by side, at most `concurrency` at once; results in config order. */
export async function runGates(options: RunGatesOptions): Promise<GateResult[]> {
  const queue = options.selections.filter((selection) => selection.run);
  const results = new Array<GateResult>(queue.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queue.length) {
      const index = next++;
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
      options.onDone?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, queue.length) }, worker));
  return results;
}
