/**
 * A test that failed at a block, as gate keeps it in the session state until the next stop: who ran
 * it, where it is, what the report showed, and its own lines as they were then (the "before" for
 * the next stop's comparison; the blocked tree is not otherwise kept).
 */
export interface RememberedTest {
  gate: string;
  id: string;
  /** Relative to the repository root, with `/` separators. */
  file: string;
  /** The failing line (1-based) the report pointed at. */
  line: number;
  expected?: string;
  received?: string;
  /** 1-based line of the test's declaration at the block. */
  start: number;
  /** The test's lines at the block, from its declaration to its end. */
  text: string[];
}

export const MAX_REMEMBERED_TESTS = 50;
export const MAX_TEST_LINES = 150;
export const MAX_LINE_CHARS = 400;

export function isRememberedTests(value: unknown): value is RememberedTest[] {
  return Array.isArray(value) && value.length <= MAX_REMEMBERED_TESTS && value.every(isRememberedTest);
}

function isRememberedTest(value: unknown): value is RememberedTest {
  if (typeof value !== 'object' || value === null) return false;
  const { gate, id, file, line, expected, received, start, text } = value as Record<string, unknown>;
  return (
    typeof gate === 'string' &&
    typeof id === 'string' &&
    typeof file === 'string' &&
    Number.isInteger(line) &&
    (expected === undefined || typeof expected === 'string') &&
    (received === undefined || typeof received === 'string') &&
    Number.isInteger(start) &&
    Array.isArray(text) &&
    text.length <= MAX_TEST_LINES &&
    text.every((item) => typeof item === 'string')
  );
}
