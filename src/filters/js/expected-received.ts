/** What an assertion wanted and what the code gave, as the runner printed them (one line each). */
export interface ExpectedReceived {
  expected?: string;
  received?: string;
}

const MAX_VALUE = 200;

/** Vitest: a one-line "- Expected / + Received" diff, else "expected 4 to be 3" in the message. */
export function vitestValues(body: readonly string[]): ExpectedReceived {
  const diff = oneLineDiff(body, /^\s*- Expected\s*$/, (line) => /^\s*\+ Received\s*$/.test(line));
  if (diff) return values(diff.minus, diff.plus);
  for (const line of body) {
    const match = /^\s*AssertionError: expected (.+?) to (?:be|equal|strictly equal|deeply equal) (.+?)(?: \/\/ .*)?$/.exec(line);
    if (match) return values(match[2], match[1]);
  }
  return {};
}

/** Jest: "Expected: 3" and "Received: 4". */
export function jestValues(body: readonly string[]): ExpectedReceived {
  const find = (label: string) => body.map((line) => new RegExp(`^\\s*${label}: (.+)$`).exec(line)?.[1]).find((value) => value !== undefined);
  return values(find('Expected'), find('Received'));
}

/** Node's AssertionError properties ("actual: 4," / "expected: 3,"), or TAP's YAML fields. */
export function nodeAssertValues(lines: readonly string[]): ExpectedReceived {
  const find = (key: string) =>
    lines.map((line) => new RegExp(`^\\s*${key}: (.+?),?$`).exec(line)?.[1]).find((value) => value !== undefined && value !== '|-' && value !== '>-');
  return values(find('expected'), find('actual'));
}

/** Mocha's "+ expected - actual" diff when it is one line each: "-4" is what the code gave. */
export function mochaValues(body: readonly string[]): ExpectedReceived {
  const diff = oneLineDiff(body, /^\s*\+ expected - actual$/);
  return diff ? values(diff.plus, diff.minus) : {};
}

function oneLineDiff(body: readonly string[], header: RegExp, second?: (line: string) => boolean): { minus: string; plus: string } | undefined {
  const start = body.findIndex((line) => header.test(line));
  if (start === -1) return undefined;
  let index = start + 1;
  if (second) {
    if (!second(body[index] ?? '')) return undefined;
    index++;
  }
  while ((body[index] ?? '').trim() === '' && index < body.length) index++;
  const minus: string[] = [];
  const plus: string[] = [];
  for (; index < body.length; index++) {
    const line = (body[index] ?? '').trim();
    if (line.startsWith('-')) minus.push(line.slice(1).trim());
    else if (line.startsWith('+')) plus.push(line.slice(1).trim());
    else break;
  }
  return minus.length === 1 && plus.length === 1 ? { minus: minus[0] ?? '', plus: plus[0] ?? '' } : undefined;
}

/** The pair as kept: each value trimmed, one over 200 characters left out. */
export function values(expected: string | undefined, received: string | undefined): ExpectedReceived {
  const clip = (value: string) => (value.length > MAX_VALUE ? undefined : value.trim());
  const e = expected === undefined ? undefined : clip(expected);
  const r = received === undefined ? undefined : clip(received);
  return { ...(e ? { expected: e } : {}), ...(r ? { received: r } : {}) };
}
