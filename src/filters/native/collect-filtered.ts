import type { Failure, Filtered } from '../filter.js';
import { genericFilter } from '../generic.js';

const MAX_LINE = 400;

/** Accumulates what a tool filter keeps: items in output order and their failures. */
export interface Collector {
  /** Keeps one item (tidied: repeats collapsed, long lines cut, blank edges trimmed). */
  item(lines: string[]): void;
  fail(failure: Failure): void;
  /** The result; everything not kept counts as dropped. */
  done(summary: string[]): Filtered;
}

/**
 * `lines` is the cleaned input. When a filter recognised nothing in it (a crash, a usage error, a
 * format it does not know), the generic filter keeps whatever is not noise instead.
 */
export function collectFiltered(noun: string, raw: string, lines: string[]): Collector {
  const items: string[][] = [];
  const failures: Failure[] = [];
  // A failure is shown by the item kept just before it (each filter keeps an item, then its failures).
  const itemOf: number[] = [];
  let shown = true;
  return {
    item(kept) {
      const tidy = tidyLines(kept);
      shown = tidy.length > 0;
      if (shown) items.push(tidy);
    },
    fail(failure) {
      failures.push(failure);
      itemOf.push(shown ? items.length - 1 : -1);
    },
    done(summary) {
      if (items.length === 0 && failures.length === 0) return genericFilter(raw);
      const tidySummary = tidyLines(summary);
      const kept = items.reduce((sum, item) => sum + item.length, tidySummary.length);
      const dropped = Math.max(0, lines.filter((line) => line.trim() !== '').length - kept);
      return { items, noun, summary: tidySummary, dropped, failures, itemOf };
    },
  };
}

/** Repeated identical lines collapse into one and a count; runs of blank lines into one; long lines are cut. */
export function tidyLines(lines: string[]): string[] {
  const kept: string[] = [];
  let repeats = 0;
  const flush = () => {
    if (repeats > 0) kept.push(`  (the line above repeated ${repeats} more times)`);
    repeats = 0;
  };
  for (const line of lines) {
    const previous = kept.at(-1);
    if (line.trim() === '' && (previous === undefined || previous === '')) continue;
    if (line !== '' && line === previous) {
      repeats++;
      continue;
    }
    flush();
    kept.push(line.trim() === '' ? '' : clipLine(line));
  }
  flush();
  while (kept.at(-1) === '') kept.pop();
  return kept;
}

function clipLine(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}… (${line.length - MAX_LINE} more characters)` : line;
}
