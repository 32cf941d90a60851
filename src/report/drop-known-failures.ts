import type { Filtered } from '../filters/filter.js';

/**
 * The filtered output without the items that show only failures in `known` (failing before the
 * turn): the agent reads its own failures, and the old ones in one line after them. Unchanged when
 * the filter does not say which item shows which failure.
 */
export function dropKnownFailures(filtered: Filtered, known: ReadonlySet<string>): Filtered {
  const { itemOf } = filtered;
  if (itemOf === undefined || itemOf.length !== filtered.failures.length || known.size === 0) return filtered;
  const shows = new Map<number, boolean[]>();
  filtered.failures.forEach((failure, index) => {
    const item = itemOf[index] ?? -1;
    if (item >= 0) shows.set(item, [...(shows.get(item) ?? []), known.has(failure.id)]);
  });
  const dropped = new Set([...shows].filter(([, old]) => old.every(Boolean)).map(([item]) => item));
  if (dropped.size === 0) return filtered;
  const newIndex = new Map<number, number>();
  filtered.items.forEach((_, item) => {
    if (!dropped.has(item)) newIndex.set(item, newIndex.size);
  });
  const kept = filtered.failures.flatMap((failure, index) => (dropped.has(itemOf[index] ?? -1) ? [] : [{ failure, item: newIndex.get(itemOf[index] ?? -1) ?? -1 }]));
  return {
    ...filtered,
    items: filtered.items.filter((_, item) => !dropped.has(item)),
    ...(filtered.itemDirs ? { itemDirs: filtered.itemDirs.filter((_, item) => !dropped.has(item)) } : {}),
    failures: kept.map(({ failure }) => failure),
    itemOf: kept.map(({ item }) => item),
  };
}
