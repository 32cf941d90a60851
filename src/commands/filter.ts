import { readSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { FILTER_IDS } from '../filters/filter-ids.js';
import { filterOutput } from '../filters/filter-output.js';
import { DEFAULTS } from '../config/defaults.js';
import { isFileNow, placeTaskPaths, projectDirsOf } from '../report/place-task-paths.js';
import { fitFiltered } from '../report/render-report.js';
import { BoundedCapture } from '../runner/bounded-capture.js';

/** `gate filter --filter ID`: a tool's raw output on stdin, printed as the agent would read it. */
export function filterCommand(args: string[]): number {
  let values;
  try {
    values = parseArgs({ args, options: { filter: { type: 'string' }, budget: { type: 'string' } } }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: gate filter --filter ID [--budget N]`);
  }
  const id = values.filter ?? 'generic';
  if (!FILTER_IDS.includes(id)) throw new UsageError(`unknown filter "${id}"; known filters: ${FILTER_IDS.join(', ')}`);
  const budget = values.budget === undefined ? DEFAULTS.budget : Number(values.budget);
  if (!Number.isInteger(budget) || budget <= 0) throw new UsageError(`--budget takes a positive whole number of characters, got "${values.budget}"`);

  // A task runner's file paths are said from here, as a stop says them from the project.
  const filtered = placeTaskPaths(filterOutput(id, readAll()), projectDirsOf(process.cwd()), isFileNow);
  process.stdout.write(`${fitFiltered(filtered, budget).join('\n')}\n`);
  return 0;
}

// The same bounded capture as a gate's output, so that what is printed is what a stop would see.
function readAll(): string {
  const capture = new BoundedCapture(1024 * 1024);
  const chunk = Buffer.alloc(64 * 1024);
  for (;;) {
    let n = 0;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'EAGAIN') continue;
      if (error instanceof Error && 'code' in error && error.code === 'EOF') break;
      throw error;
    }
    if (n === 0) break;
    capture.push(Buffer.from(chunk.subarray(0, n)));
  }
  return capture.text();
}
