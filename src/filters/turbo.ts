import { cleanText } from './clean-text.js';
import type { Filtered } from './filter.js';
import { filterTasks } from './task-runner/filter-tasks.js';
import type { TaskOutput } from './task-runner/tidy-task.js';
import { describeNotRun, readGraphLine } from './task-runner/turbo-graph.js';

// `turbo run` (2.x) with --log-prefix=task --log-order=grouped: every line of a task's output is
// prefixed `PKG:TASK: `, and each task opens with `PKG:TASK: cache miss, executing HASH` (hit,
// bypass). turbo's own words about a task use `PKG#TASK:` (`ERROR  command (DIR) npm run test
// exited (1)`); its totals close the run: ` Tasks:    1 successful, 3 total`, `Failed:    a#test, b#test`.
const STATUS = /^(\S+): cache (?:miss|hit|bypass)\b/;
const OWN = /^(\S+?)#(\S+): +(WARNING|ERROR) +(.*)$/;
const TASKS = /^\s*Tasks:\s+(.*)$/;
const FAILED = /^\s*Failed:\s+(.*)$/;
// `command (/repo/packages/vue) /usr/bin/npm run test exited (1)`: the folder the task ran in.
const COMMAND_DIR = /^command \((.+?)\) /;

export function turboFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  // The tasks as turbo names them; a task name may hold a colon (`test:unit`): the longest known prefix wins.
  const prefixes = [...new Set(lines.flatMap(taskIds))].sort((a, b) => b.length - a.length);
  const tasks = new Map<string, TaskOutput>();
  const summary: string[] = [];
  let failed: string[] | undefined;
  const graph = new Map<string, string[]>();
  for (const line of lines) {
    const edge = readGraphLine(line);
    if (edge) {
      graph.set(edge.task, edge.after);
      continue;
    }
    const id = prefixes.find((prefix) => line === `${prefix}:` || line.startsWith(`${prefix}: `));
    if (id !== undefined) {
      const task = taskOf(tasks, id);
      if (!STATUS.test(line)) task.lines.push(line.slice(id.length + 2));
      continue;
    }
    const own = OWN.exec(line);
    if (own) {
      if (own[3] === 'ERROR') {
        const task = taskOf(tasks, `${own[1]}:${own[2]}`);
        task.exit = own[4]?.trim();
        const dir = COMMAND_DIR.exec(task.exit ?? '')?.[1];
        if (dir !== undefined) task.dir = dir;
      }
      continue;
    }
    const total = TASKS.exec(line)?.[1];
    if (total !== undefined) summary.push(`Tasks: ${total.trim()}`);
    const listed = FAILED.exec(line)?.[1];
    if (listed !== undefined) {
      failed = listed.split(',').map((task) => task.trim().replace('#', ':'));
      summary.push(`Failed: ${listed.trim()}`);
    }
  }
  // The graph comes after turbo's totals (gate adds it once the run has ended).
  summary.push(...describeNotRun(graph, (failed ?? []).map((task) => task.replace(':', '#'))));
  const failing = failed ?? [...tasks.values()].filter((task) => task.exit !== undefined).map((task) => task.id);
  const known = failing.length > 0;
  for (const id of failing) taskOf(tasks, id);
  const reported = known ? [...tasks.values()].filter((task) => failing.includes(task.id)) : [...tasks.values()];
  return filterTasks({ tasks: reported, failedKnown: known, summary }, lines, raw);
}

/** The tasks a line names: its status line, turbo's own words about it, the failed list (an output cut short may keep only some). */
function taskIds(line: string): string[] {
  const status = STATUS.exec(line)?.[1];
  if (status !== undefined) return [status];
  const own = OWN.exec(line);
  if (own) return [`${own[1]}:${own[2]}`];
  return FAILED.exec(line)?.[1]?.split(',').map((task) => task.trim().replace('#', ':')) ?? [];
}

function taskOf(tasks: Map<string, TaskOutput>, id: string): TaskOutput {
  const found = tasks.get(id);
  if (found) return found;
  const task: TaskOutput = { id, lines: [] };
  tasks.set(id, task);
  return task;
}
