import type { Strength } from './syntax/types.js';

// Assertions as data: what counts as one, and which matchers pin a value (strong) or only that
// there is one (weak). vitest/jest `expect`, chai `expect`/`should`, node:assert (`assert.x(`, `t.assert.x(`).

const ASSERTION = /(?<![\w$])(?:expect|assert)\s*[.(]|\.should\b/g;

const STRONG = new Set([
  'toBe', 'toEqual', 'toStrictEqual', 'toMatch', 'toMatchObject', 'toContain', 'toContainEqual', 'toHaveLength',
  'toHaveProperty', 'toThrow', 'toThrowError', 'toBeCloseTo', 'toBeGreaterThan', 'toBeGreaterThanOrEqual', 'toBeLessThan',
  'toBeLessThanOrEqual', 'toHaveBeenCalledWith', 'toHaveBeenCalledTimes', 'toHaveBeenLastCalledWith', 'toHaveBeenNthCalledWith',
  'toHaveReturnedWith', 'toMatchSnapshot', 'toMatchInlineSnapshot', 'toBeNaN', 'toBeNull', 'toBeUndefined', 'toSatisfy',
  'equal', 'equals', 'eql', 'include', 'includes', 'contain', 'contains', 'members', 'lengthOf', 'property', 'match', 'throw',
  'throws', 'above', 'below', 'least', 'most', 'within', 'closeTo', 'oneOf', 'keys', 'strictEqual', 'deepEqual', 'deepStrictEqual',
  'partialDeepStrictEqual', 'notStrictEqual', 'notDeepStrictEqual', 'notEqual', 'rejects', 'doesNotMatch',
]);

const WEAK = new Set(['toBeDefined', 'toBeTruthy', 'toBeFalsy', 'toBeInstanceOf', 'toBeTypeOf', 'anything', 'exist', 'ok', 'a', 'an', 'assert']);

const CALLED = /\.\s*(not\s*\.\s*)?(\w+)\s*\(/g;
const PROPERTY = /\.\s*(ok|exist)\b(?!\s*\()/g;
const BARE_ASSERT = /(?<![\w$.])assert\s*\(/;

/** How many assertions a line makes (`helpers`: the project's own assertion functions, src/tamper/assertion-helpers.ts). */
export function countAssertions(line: string, helpers: ReadonlySet<string> = NONE): number {
  return (line.match(ASSERTION)?.length ?? 0) + countHelperCalls(line, helpers);
}

const NONE: ReadonlySet<string> = new Set();
const CALL_OF_NAME = /(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(/g;

/** How many calls of the named helpers a line makes. */
export function countHelperCalls(line: string, helpers: ReadonlySet<string>): number {
  if (helpers.size === 0) return 0;
  let count = 0;
  for (const match of line.matchAll(CALL_OF_NAME)) {
    if (helpers.has(match[1] ?? '') && !/\bfunction\s*\*?\s*$/.test(line.slice(0, match.index))) count++;
  }
  return count;
}

/**
 * The first matcher on an assertion line that tells how much it checks; `not.` makes any matcher
 * weak. A helper's call with no known matcher after it (`expectErrors(query)`, `expectJSON(x).toDeepEqual(…)`) pins a value.
 */
export function matcherOf(line: string, helpers: ReadonlySet<string> = NONE): Strength | undefined {
  const helper = countHelperCalls(line, helpers) > 0;
  if (countAssertions(line) === 0 && !helper) return undefined;
  const found: { at: number; strength: Strength }[] = [];
  for (const match of line.matchAll(CALLED)) {
    const name = match[2] ?? '';
    if (match[1]) found.push({ at: match.index, strength: { kind: 'weak', name: `not.${name}` } });
    else if (STRONG.has(name)) found.push({ at: match.index, strength: { kind: 'strong', name } });
    else if (WEAK.has(name)) found.push({ at: match.index, strength: { kind: 'weak', name } });
  }
  for (const match of line.matchAll(PROPERTY)) found.push({ at: match.index, strength: { kind: 'weak', name: match[1] ?? '' } });
  const bare = BARE_ASSERT.exec(line);
  if (bare) found.push({ at: bare.index, strength: { kind: 'weak', name: 'assert' } });
  const first = found.sort((a, b) => a.at - b.at)[0]?.strength;
  if (first || !helper) return first;
  return { kind: 'strong', name: /([\w$]+)\s*\(/.exec(line.replace(/^(?:return|await)\s+/, ''))?.[1] ?? 'helper' };
}
