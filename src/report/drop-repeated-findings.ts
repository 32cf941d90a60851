import { resolve } from 'node:path';
import type { Failure, Filtered } from '../filters/filter.js';
import type { FailedGate } from './failed-gate.js';

/**
 * One report per finding across gates: a failure another gate earlier in the report already shows
 * (the same file, line and message, its path read from each gate's folder: a root `tsc` and a
 * package's own both name `src/a.ts:3`) leaves the later gate's output, which names the first.
 * A gate without a folder (`cwd`), or a failure without a file and line, is never a repeat.
 */
export function dropRepeatedFindings(gates: FailedGate[]): FailedGate[] {
  const shownBy = new Map<string, string>();
  return gates.map((gate) => {
    const keys = gate.filtered.failures.map((failure) => findingKey(gate.cwd, failure));
    const repeats = keys.map((key) => (key === undefined ? undefined : shownBy.get(key)));
    for (const key of keys) if (key !== undefined && !shownBy.has(key)) shownBy.set(key, gate.name);
    const others = [...new Set(repeats.filter((name): name is string => name !== undefined))];
    if (others.length === 0) return gate;
    const filtered = withoutFailures(gate.filtered, repeats.map((name) => name !== undefined));
    const count = repeats.filter((name) => name !== undefined).length;
    const note = `${count} ${count === 1 ? 'finding' : 'findings'} of ${gate.name} left out here: the same as ${others.join(', ')} reported above.`;
    return { ...gate, filtered, notes: [note, ...(gate.notes ?? [])] };
  });
}

function findingKey(cwd: string | undefined, failure: Failure): string | undefined {
  if (cwd === undefined || failure.file === undefined || failure.line === undefined) return undefined;
  return `${resolve(cwd, failure.file)}:${failure.line}:${failure.message}`;
}

// An item goes when every failure it shows is a repeat; an item that shows no failure stays.
function withoutFailures(filtered: Filtered, repeated: boolean[]): Filtered {
  const itemOf = filtered.itemOf ?? [];
  const items = filtered.items.map((_, index) => {
    const shown = itemOf.flatMap((item, failure) => (item === index ? [failure] : []));
    return shown.length === 0 || shown.some((failure) => !repeated[failure]);
  });
  const newIndex = items.map((_, index) => items.slice(0, index).filter(Boolean).length);
  const kept = filtered.failures.flatMap((failure, index) => (repeated[index] ? [] : [{ failure, item: itemOf[index] }]));
  return {
    ...filtered,
    items: filtered.items.filter((_, index) => items[index]),
    failures: kept.map(({ failure }) => failure),
    itemOf: kept.map(({ item }) => (item === undefined || item < 0 || !items[item] ? -1 : (newIndex[item] ?? -1))),
    ...(filtered.itemDirs ? { itemDirs: filtered.itemDirs.filter((_, index) => items[index]) } : {}),
    dropped: filtered.dropped,
  };
}
