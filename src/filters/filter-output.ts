import type { Filter, Filtered } from './filter.js';
import { genericFilter } from './generic.js';
import { JS_FILTERS } from './js-filters.js';
import { NATIVE_FILTERS } from './native-filters.js';
import { TASK_RUNNER_FILTERS } from './task-runner-filters.js';

/** Tool-specific filters by id; any other id (and `generic`) gets the generic filter, safe for any output. */
const DEDICATED: Record<string, Filter> = { ...JS_FILTERS, ...NATIVE_FILTERS, ...TASK_RUNNER_FILTERS };

export function filterOutput(id: string, raw: string): Filtered {
  return (DEDICATED[id] ?? genericFilter)(raw);
}
