import { type ExpectedReceived, values } from '../js/expected-received.js';

// What an assertion wanted and what the code gave, from the Python, Go and Rust runners' printouts.
// pytest and Rust print two sides without saying which is the code's: the left one goes in
// `received` (the tamper guard checks which of the two the test had written).

/**
 * pytest's `E  assert 6 == 5` (and `AssertionError: assert …`); when it cut the values short
 * (`{'budget': 60...est']}`), the one item its explanation says differs; unittest's `AssertionError: 6 != 5`.
 */
export function pytestValues(errors: readonly string[]): ExpectedReceived {
  for (const line of errors) {
    const compared = /^(?:AssertionError: )?assert (.+?) == (.+)$/.exec(line);
    if (compared && `${compared[1]}${compared[2]}`.includes('...')) return differingItem(errors);
    if (compared) return values(compared[2], compared[1]);
    const unittest = /^AssertionError: (.+?) != (.+?)(?: : .*)?$/.exec(line);
    if (unittest) return values(unittest[2], unittest[1]);
  }
  return {};
}

/** `At index 3 diff: 6 != 5`, or the single line under `Differing items:` (`{'budget': 6000} != {'budget': 8000}`: 6000 and 8000). */
function differingItem(errors: readonly string[]): ExpectedReceived {
  const index = errors.map((line) => /^\s*At index \d+ diff: (.+?) != (.+)$/.exec(line)).find((match) => match !== null);
  if (index) return values(index[2], index[1]);
  const start = errors.findIndex((line) => /^\s*Differing items:\s*$/.test(line));
  const items = start === -1 ? [] : errors.slice(start + 1).filter((line) => / != /.test(line));
  const single = /^\s*\{(.+?): (.+)\} != \{\1: (.+)\}\s*$/.exec(items.length === 1 ? (items[0] ?? '') : '');
  return single ? values(single[3], single[2]) : {};
}

const GO_FORMS: { pattern: RegExp; expected: number; received: number }[] = [
  // The Go style guide's "Sum(2, 3) = 6, want 5" (or "; want").
  { pattern: /= (.+?)[,;] want:? (.+?)$/, expected: 2, received: 1 },
  { pattern: /\bgot:? (.+?)[,;]? want(?:ed)?:? (.+?)$/, expected: 2, received: 1 },
  { pattern: /\bwant(?:ed)?:? (.+?)[,;]? got:? (.+?)$/, expected: 1, received: 2 },
  { pattern: /\bexpected:? (.+?)[,;]? (?:but )?(?:got|was|actual):? (.+?)$/, expected: 1, received: 2 },
];

/** A `t.Errorf` line in one of the usual forms, or testify's `expected:` / `actual  :` lines. */
export function goValues(lines: readonly string[]): ExpectedReceived {
  const testify = (label: RegExp) => lines.map((line) => label.exec(line.replace(/\t/g, ' '))?.[1]).find((value) => value !== undefined);
  const expected = testify(/^\s*expected\s*: (.+)$/);
  const actual = testify(/^\s*actual\s*: (.+)$/);
  if (expected !== undefined && actual !== undefined) return values(expected, actual);
  for (const line of lines) {
    const message = /^\s*\S+\.go:\d+: (.*)$/.exec(line)?.[1];
    if (message === undefined) continue;
    for (const form of GO_FORMS) {
      const match = form.pattern.exec(message);
      if (match) return values(match[form.expected], match[form.received]);
    }
  }
  return {};
}

/** `assert_eq!`'s `left: 6` / `right: 5` (Rust ≥ 1.73), or the older `left: \`6\`,` form. */
export function rustValues(lines: readonly string[]): ExpectedReceived {
  if (!lines.some((line) => /assertion (?:`left == right`|failed: `\(left == right\)`)/.test(line))) return {};
  const side = (name: string) => lines.map((line) => new RegExp(`^\\s*${name}: (.+?),?$`).exec(line)?.[1]?.replace(/^`(.*)`$/, '$1')).find((value) => value !== undefined);
  return values(side('right'), side('left'));
}
