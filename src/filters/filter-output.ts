import type { Filter, Filtered } from './filter.js';
import { genericFilter } from './generic.js';

/**
 * Tool-specific filters register here by id. An id without a dedicated filter yet (see
 * filter-ids.ts) gets the generic one, which is safe for any output.
 */
const DEDICATED: Record<string, Filter> = {};

export function filterOutput(id: string, raw: string): Filtered {
  return (DEDICATED[id] ?? genericFilter)(raw);
}
