import type { Filter, Filtered } from './filter.js';
import { genericFilter } from './generic.js';
import { JS_FILTERS } from './js-filters.js';
import { NATIVE_FILTERS } from './native-filters.js';
import { TASK_RUNNER_FILTERS } from './task-runner-filters.js';

/** Tool-specific filters by id; any other id (and `generic`) gets the generic filter, safe for any output. */
const DEDICATED: Record<string, Filter> = { ...JS_FILTERS, ...NATIVE_FILTERS, ...TASK_RUNNER_FILTERS };

/** How many of the tool's last lines (noise dropped) a filter that names no failure must keep. */
export const LAST_LINES = 12;

export function filterOutput(id: string, raw: string, runner = 'npx'): Filtered {
  const filter = DEDICATED[id];
  if (filter === undefined) return genericFilter(raw, runner);
  const filtered = filter(raw, runner);
  // A task runner's filter that named a failed task kept its output through that tool's filter.
  if (id in TASK_RUNNER_FILTERS && filtered.items.length > 0) return filtered;
  return keepLastLines(filtered, raw);
}

// Carets and rules under a line say nothing on their own.
const NOTHING_SAID = /^[\s^~|⎯─=_-]*$/;

/**
 * A filter that names no failure may be reading a runner that died before it tested anything (a
 * config that throws, a plugin that failed to import): whatever it kept, the tool's own last lines
 * stay, those it dropped added after its items, in their order.
 */
export function keepLastLines(filtered: Filtered, raw: string): Filtered {
  if (filtered.failures.length > 0 || filtered.crashShown) return filtered;
  const generic = genericFilter(raw);
  const tail = [...generic.items.flat(), ...generic.summary].filter((line) => !NOTHING_SAID.test(line)).slice(-LAST_LINES);
  const kept = new Set([...filtered.items.flat(), ...filtered.summary].map((line) => line.trim()));
  const missing = tail.filter((line) => !kept.has(line.trim()));
  if (missing.length === 0) return filtered;
  return { ...filtered, items: [...filtered.items, missing], dropped: Math.max(0, filtered.dropped - missing.length) };
}
