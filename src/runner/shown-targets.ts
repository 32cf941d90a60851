/** At most this many of a command's files are shown, and in at most this many characters. */
const SHOWN_FILES = 10;
const SHOWN_CHARACTERS = 200;

// A test file by its name in the stacks gate knows: `a.test.ts`, `a.spec.js`, `test_a.py`, `a_test.go`,
// or anything under a `tests`/`__tests__` folder.
const TEST_FILE = /(?:^|\/)(?:tests?|__tests__|spec)\/|\.(?:test|spec)(?:-d)?\.[^/]+$|(?:^|\/)test_[^/]+\.py$|_test\.(?:go|py)$/;

/**
 * The files a command's `$` line names, when it runs on more than fit: the test files first (what
 * the agent reruns and reads), then the rest, and a marker for how many more (`{ more }`). Within
 * the limits the files are shown as they run.
 */
export function shownTargets(targets: string[]): { shown: string[]; more: number } {
  if (targets.length <= SHOWN_FILES && targets.join(' ').length <= SHOWN_CHARACTERS) return { shown: targets, more: 0 };
  const ordered = [...targets.filter((file) => TEST_FILE.test(file)), ...targets.filter((file) => !TEST_FILE.test(file))];
  const shown: string[] = [];
  let length = 0;
  for (const file of ordered) {
    if (shown.length === SHOWN_FILES || (shown.length > 0 && length + file.length + 1 > SHOWN_CHARACTERS)) break;
    shown.push(file);
    length += file.length + 1;
  }
  return { shown, more: targets.length - shown.length };
}
