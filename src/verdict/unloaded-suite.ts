// A runner that cannot load a test file fails the file as a whole (vitest "FAIL a.test.ts [ a.test.ts ]",
// jest "Test suite failed to run", pytest's collection error): its id is the file alone, where a
// failing test's id is the file and the test (`a.test.ts > adds`, `test_a.py::test_adds`).
const TEST_IN_FILE = / > |::/;

/**
 * The first file the baseline run failed whole while the turn failed tests inside it: the copy never
 * ran those tests, so it cannot say whether they failed before (floating-ui: vite refused the setup
 * file of a copy under .git/). Undefined when every such test was run on the baseline.
 */
export function unloadedSuite(baselineIds: readonly string[], turnIds: readonly string[]): string | undefined {
  const whole = new Set(baselineIds.filter((id) => !TEST_IN_FILE.test(id)));
  for (const id of turnIds) {
    const match = TEST_IN_FILE.exec(id);
    const file = match ? id.slice(0, match.index) : undefined;
    if (file !== undefined && whole.has(file)) return file;
  }
  return undefined;
}
