import { isAbsolute, join } from 'node:path';
import type { Failure, Filter, Filtered } from '../filter.js';
import { genericFilter } from '../generic.js';
import { JS_FILTERS } from '../js-filters.js';
import { detectTool, printedRoot } from './detect-tool.js';
import { managerDir, type TaskOutput, tidyTask } from './tidy-task.js';

// Each task's own totals are kept while few tasks failed; past that, the runner's totals say enough.
const MAX_TASK_SUMMARIES = 3;

export interface TaskRun {
  /** The tasks to report, in output order: those the runner says failed. */
  tasks: TaskOutput[];
  /** False when the runner did not say which failed (a cut-off output): a task counts when its tool found a failure. */
  failedKnown: boolean;
  /** The runner's totals (`Tasks: 2 successful, 3 total`, `Failed tasks: …`). */
  summary: string[];
}

/**
 * The report of a task runner's run: each failed task's part filtered by the filter of the tool that
 * printed it (vitest, jest, node --test, mocha, tsc, ESLint, Biome, or generic), every item headed by
 * the task (`@acme/web:test: FAIL …`) and every failure id by its package (`@acme/web > …`), so the
 * same failure keeps its id from run to run.
 */
export function filterTasks(run: TaskRun, lines: readonly string[], raw: string): Filtered {
  const items: string[][] = [];
  const itemDirs: string[][] = [];
  const failures: Failure[] = [];
  const summary: string[] = [];
  const nouns = new Set<string>();
  for (const task of run.tasks) {
    const tidy = tidyTask(task.lines);
    const tool = detectTool(tidy.lines, tidy.script);
    const filter: Filter = JS_FILTERS[tool] ?? genericFilter;
    const result = filter(tidy.lines.join('\n'));
    if (!run.failedKnown && result.failures.length === 0) continue;
    const project = task.id.split(':')[0] ?? task.id;
    const taskItems = result.items.length > 0 ? result.items : [[task.exit ?? 'failed, with no output']];
    const dirs = [printedRoot(tidy.lines), task.dir ?? managerDir(task.lines)].filter((dir) => dir !== undefined);
    for (const [head = '', ...rest] of taskItems) {
      items.push([`${task.id}: ${head}`, ...rest]);
      itemDirs.push(dirs);
    }
    failures.push(...result.failures.map((failure) => ({ ...failure, id: `${project} > ${failure.id}`, ...fromTaskDir(failure.file, dirs[0]) })));
    if (run.tasks.length <= MAX_TASK_SUMMARIES) summary.push(...result.summary.map((line) => `${task.id}: ${line}`));
    nouns.add(result.items.length > 0 ? result.noun : 'failures');
  }
  if (items.length === 0) return genericFilter(raw);
  summary.push(...run.summary);
  const kept = items.reduce((sum, item) => sum + item.length, 0) + summary.length;
  const inputLines = lines.filter((line) => line.trim() !== '').length;
  return { items, noun: nouns.size === 1 ? [...nouns][0] ?? 'failures' : 'failures', summary, dropped: Math.max(0, inputLines - kept), failures, itemDirs };
}

/**
 * A failure's file named from the folder its tool names files from (its root, else the folder the
 * task ran in), not from the gate's: what reads it later (the check for files that came and went
 * during the run, the tamper check) looks for it there. Its id keeps the name the tool printed.
 */
function fromTaskDir(file: string | undefined, dir: string | undefined): { file?: string } {
  if (file === undefined || dir === undefined || isAbsolute(file) || /^(?:\||file:)/.test(file)) return {};
  return { file: join(dir, file) };
}
