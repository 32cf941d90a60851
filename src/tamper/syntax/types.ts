/** 0-based, inclusive lines of one test in its file. */
export interface Span {
  start: number;
  end: number;
}

/** How much an assertion pins: a value (strong) or only that there is one (weak). */
export type Strength = { kind: 'strong' | 'weak'; name: string };

/**
 * What the tamper guard needs to know of a test language to compare a failing test with itself
 * later: where a test is, what in it asserts, and which assertions pin a value.
 */
export interface TestSyntax {
  /** The name a failure's id gives the test in its file ("src/a.test.ts > sum > adds" → "adds"). */
  titleOf(id: string): string;
  /** The test named `title` closest to the 1-based line `near` (the failing line). */
  findSpan(lines: readonly string[], title: string, near: number): Span | undefined;
  /** How many assertions a (trimmed) line makes. */
  countAssertions(line: string): number;
  /** The assertion on a (trimmed) line that tells how much it checks. */
  matcherOf(line: string): Strength | undefined;
  /** Where the test's body is among its code lines (trimmed, comments out): `from` inclusive, `to` exclusive. */
  bodyOf(code: readonly string[]): { from: number; to: number };
  /**
   * Whether a line holds an expected value although it asserts nothing itself: an `if` that guards
   * `t.Errorf`, a row of a test table, a `parametrize` decorator.
   */
  holdsExpectation(code: readonly string[], index: number): boolean;
}
