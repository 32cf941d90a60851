import { basename, resolve } from 'node:path';
import type { Filtered } from '../filters/filter.js';
import { frameLocation, isLibraryFrame, isStackFrame, parsePosition } from '../filters/js/stack-frames.js';

const MAX_NAMES = 600;
const TOP_FRAMES = 4;
// Quoted strings and numbers in a message: `suggestions: "Droid"` and `suggestions: "A"` are one error.
const VALUES = /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`|\b\d+(?:\.\d+)?\b/g;
// A test file's own name, or a test-helper module's path (`__testUtils__/expectJSON.ts`, `test/helpers.js`).
const TEST_CODE = /(?:^|[\\/])(?:__tests__|__testUtils__|tests?|spec|__mocks__)[\\/]|[._-](?:test|spec)s?\.[cm]?[jt]sx?$/i;
const TEST_STEM = /(?:[._-](?:test|spec)s?|^test_|_test)$/i;

export interface Grouped {
  filtered: Filtered;
  /** How many failures each item shows, when some show more than one. */
  counts?: number[];
}

/**
 * A failed gate's items as the report shows them: failures thrown from the same place in the code
 * (the same error and the same frames outside test code: one change that breaks 48 tests) shown
 * once, with "and N more with the same stack: names…". The failures of the changed files' own tests
 * (a changed test file, or `didYouMean-test.ts` for a changed `didYouMean.ts`) come first, then
 * the errors many tests share, the largest first.
 * `changed`: absolute paths; `cwd`: where the tool named its files from.
 */
export function groupFailures(filtered: Filtered, changed: readonly string[], cwd: string | undefined): Grouped {
  const { itemOf } = filtered;
  if (itemOf === undefined || itemOf.length !== filtered.failures.length || filtered.items.length < 2) return { filtered };
  const nameOf = new Map<number, string>();
  filtered.failures.forEach((failure, index) => {
    const item = itemOf[index] ?? -1;
    if (item >= 0 && !nameOf.has(item)) nameOf.set(item, failure.id.split(' > ').slice(1).slice(-2).join(' > ') || failure.id);
  });
  const ownTest = ownTestItems(filtered, changed, cwd);
  // Each group of items with one key is led by its first changed file's own test, else its first item.
  const members = new Map<string, number[]>();
  const leader = filtered.items.map((_, index) => index);
  filtered.items.forEach((item, index) => {
    const key = nameOf.has(index) ? stackKey(item) : undefined;
    if (key !== undefined) members.set(key, [...(members.get(key) ?? []), index]);
  });
  const followers = new Map<number, number[]>();
  for (const group of members.values()) {
    const first = group.find((index) => ownTest.has(index)) ?? group[0] ?? 0;
    for (const index of group) leader[index] = first;
    if (group.length > 1) followers.set(first, group.filter((index) => index !== first));
  }
  const shown = filtered.items.flatMap((_, index) => (leader[index] === index ? [index] : []));
  // The changed files' own tests, then the errors many tests share (most first), then the rest, each in the tool's order.
  const rank = (index: number) => (ownTest.has(index) ? -1_000_000 : -(followers.get(index)?.length ?? 0));
  const order = [...shown].sort((a, b) => rank(a) - rank(b));
  if (followers.size === 0 && order.every((item, at) => item === shown[at])) return { filtered };
  const newIndex = new Map(order.map((item, at) => [item, at]));
  const items = order.map((index) => {
    const more = followers.get(index) ?? [];
    if (more.length === 0) return filtered.items[index] ?? [];
    const names = more.map((follower) => nameOf.get(follower) ?? '').join('; ');
    const shownNames = names.length > MAX_NAMES ? `${names.slice(0, MAX_NAMES - 1)}…` : names;
    return [...(filtered.items[index] ?? []), `  … and ${more.length} more with the same stack: ${shownNames}`];
  });
  return {
    filtered: {
      ...filtered,
      items,
      itemOf: itemOf.map((item) => (item < 0 ? item : (newIndex.get(leader[item] ?? item) ?? -1))),
      ...(filtered.itemDirs ? { itemDirs: order.map((index) => filtered.itemDirs?.[index] ?? []) } : {}),
    },
    counts: order.map((index) => 1 + (followers.get(index)?.length ?? 0)),
  };
}

/**
 * Where an error was thrown from the code: its message with the values in it blanked, and the top
 * frames outside test code (the throw site and its first callers; below them each test's own path
 * differs). Failures with the same one are one failure seen many times. An assertion that fails in
 * the test or a helper has no such frame: each shows its own values.
 */
function stackKey(item: readonly string[]): string | undefined {
  const frames = item.filter((line) => isStackFrame(line) && !isLibraryFrame(line)).map((line) => frameLocation(line));
  const code = frames.filter((location) => !TEST_CODE.test(parsePosition(location)?.file ?? location)).slice(0, TOP_FRAMES);
  if (code.length === 0) return undefined;
  const error = item.slice(1).find((line) => line.trim() !== '' && !isStackFrame(line))?.trim() ?? '';
  return [error.replace(VALUES, '_'), ...code].join('\n');
}

/** The items that show a failure of a changed test file, or of the test named for a changed module. */
function ownTestItems(filtered: Filtered, changed: readonly string[], cwd: string | undefined): Set<number> {
  const found = new Set<number>();
  if (changed.length === 0 || cwd === undefined) return found;
  const paths = new Set(changed.map((path) => resolve(path)));
  const stems = new Set(changed.map((path) => stem(path)));
  filtered.failures.forEach((failure, index) => {
    const item = filtered.itemOf?.[index] ?? -1;
    if (item < 0 || failure.file === undefined) return;
    const file = resolve(cwd, failure.file.replace(/^file:\/\//, ''));
    if (paths.has(file) || stems.has(stem(file).replace(TEST_STEM, ''))) found.add(item);
  });
  return found;
}

function stem(path: string): string {
  return basename(path).replace(/\.[^.]*$/, '');
}

