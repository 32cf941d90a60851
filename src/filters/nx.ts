import { cleanText } from './clean-text.js';
import type { Filtered } from './filter.js';
import { filterTasks } from './task-runner/filter-tasks.js';
import type { TaskOutput } from './task-runner/tidy-task.js';

// `nx run-many --outputStyle=static` (Nx 22): each task's output whole, once it ends, under
// `> nx run PROJECT:TARGET` (then `[local cache]` and the like; in GitHub Actions inside
// `::group::✅ …` / `::endgroup::`); Nx's own messages are titled ` NX   …`, the last one
// `Running target test for 3 projects failed`, over `Failed tasks:` and `- PROJECT:TARGET` lines.
const HEADER = /^(?:::group::\S*\s+)?> nx run (\S+)/;
const TITLE = /^ NX {2,}(.*)$/;
const END_GROUP = /^::endgroup::$/;
const LIST_ITEM = /^- (\S+)$/;

export function nxFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const tasks: TaskOutput[] = [];
  let current: TaskOutput | undefined;
  let lastTitle: string | undefined;
  const lists = new Map<string, string[]>();
  let list: string[] | undefined;
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header?.[1]) {
      current = { id: header[1], lines: [] };
      tasks.push(current);
      continue;
    }
    const title = TITLE.exec(line);
    if (title?.[1] || END_GROUP.test(line)) {
      current = undefined;
      list = undefined;
      if (title?.[1]) lastTitle = title[1].trim();
      continue;
    }
    if (current) {
      current.lines.push(line);
      continue;
    }
    if (line === 'Failed tasks:' || line.startsWith('Tasks not run because')) {
      list = [];
      lists.set(line === 'Failed tasks:' ? 'failed' : 'skipped', list);
      continue;
    }
    const item = LIST_ITEM.exec(line)?.[1];
    if (item !== undefined && list) list.push(item);
  }
  const failed = lists.get('failed');
  const skipped = lists.get('skipped') ?? [];
  const summary = [
    ...(lastTitle !== undefined && failed ? [lastTitle] : []),
    ...(failed && failed.length > 0 ? [`Failed tasks: ${failed.join(', ')}`] : []),
    ...(skipped.length > 0 ? [`Not run, a task they depend on failed: ${skipped.join(', ')}`] : []),
  ];
  const known = failed !== undefined && failed.length > 0;
  const reported = known ? failed.map((id) => tasks.find((task) => task.id === id) ?? { id, lines: [] }) : tasks;
  return filterTasks({ tasks: reported, failedKnown: known, summary }, lines, raw);
}
