import { genericFilter } from '../generic.js';
import type { Failure, Filtered } from '../filter.js';
import { collapseRepeats } from './tidy-lines.js';

export interface Parsed {
  items: string[][];
  noun: string;
  summary: string[];
  failures: Failure[];
}

/**
 * A tool filter's result, with its noise counted. When the filter found no failure (a crash, a config
 * error, a format it does not know), the generic filter keeps everything that is not noise.
 */
export function buildFiltered(parsed: Parsed, lines: readonly string[], raw: string): Filtered {
  if (parsed.items.length === 0) return genericFilter(raw);
  const items = parsed.items.map((item) => collapseRepeats(item));
  const kept = items.reduce((sum, item) => sum + item.length, 0) + parsed.summary.length;
  const inputLines = lines.filter((line) => line.trim() !== '').length;
  // These filters make one item per failure, in the same order.
  const itemOf = parsed.items.length === parsed.failures.length ? { itemOf: parsed.failures.map((_, index) => index) } : {};
  return { items, noun: parsed.noun, summary: parsed.summary, dropped: Math.max(0, inputLines - kept), failures: parsed.failures, ...itemOf };
}
