import { countAssertions, matcherOf } from '../assertion-rules.js';
import { findTestSpan } from '../test-span.js';
import type { TestSyntax } from './types.js';

/** vitest, jest, node:test, mocha: `it('title', () => { … })`, `expect`/`assert`/chai. */
export const jsSyntax: TestSyntax = jsSyntaxWith(new Set());

/** The same, with a project's own assertion helpers (`expectJSON(…)`) counted as assertions. */
export function jsSyntaxWith(helpers: ReadonlySet<string>): TestSyntax {
  return {
    titleOf: (id) => id.split(' > ').at(-1) ?? id,
    findSpan: findTestSpan,
    countAssertions: (line) => countAssertions(line, helpers),
    matcherOf: (line) => matcherOf(line, helpers),
    // The declaration line opens the body; the last line closes it.
    bodyOf: (code) => ({ from: Math.min(1, code.length), to: Math.max(1, code.length - 1) }),
    holdsExpectation: () => false,
  };
}
