/** What an assertion wanted and what the code gave, as the runner printed them (one line each). */
export interface ExpectedReceived {
  expected?: string;
  received?: string;
}

const MAX_VALUE = 200;
const MAX_DIFF_VALUE = 2000;
const VITEST_EXPECTED = /^\s*- Expected\s*$/;
const JEST_EXPECTED = /^\s*- Expected\s*(?:- \d+\s*)?$/;

/**
 * Vitest: a one-line "- Expected / + Received" diff; else "expected [ 2, 1 ] to deeply equal [ 1, 2 ]"
 * in the message; else, when the message cut the values short (`…(3)`) or is `toMatchObject`'s
 * (whose diff shows the part compared), the two values a whole multi-line diff shows; else the one
 * line a diff cut into hunks changed.
 */
export function vitestValues(body: readonly string[]): ExpectedReceived {
  const received = (line: string) => /^\s*\+ Received\s*$/.test(line);
  const diff = oneLineDiff(body, VITEST_EXPECTED, received);
  if (diff) return values(diff.minus, diff.plus);
  for (const line of body) {
    const match = /^\s*AssertionError: expected (.+?) to (be|equal|strictly equal|deeply equal|match object) (.+?)(?: \/\/ .*)?$/.exec(line);
    if (!match) continue;
    if (match[2] !== 'match object' && !`${match[1]}${match[3]}`.includes('…')) return values(match[3], match[1]);
    break;
  }
  return wholeDiff(body, VITEST_EXPECTED, received) ?? changedLine(body, VITEST_EXPECTED, received) ?? {};
}

/** Jest: "Expected: 3" and "Received: 4"; else, as vitest's, the values its "- Expected  - 1" diff shows. */
export function jestValues(body: readonly string[]): ExpectedReceived {
  const find = (label: string) => body.map((line) => new RegExp(`^\\s*${label}: (.+)$`).exec(line)?.[1]).find((value) => value !== undefined);
  const found = values(find('Expected'), find('Received'));
  if (found.expected !== undefined || found.received !== undefined) return found;
  const received = (line: string) => /^\s*\+ Received\s*(?:\+ \d+\s*)?$/.test(line);
  return wholeDiff(body, JEST_EXPECTED, received) ?? changedLine(body, JEST_EXPECTED, received) ?? {};
}

/** Node's AssertionError properties ("actual: 4," / "expected: 3,"), or TAP's YAML fields. */
export function nodeAssertValues(lines: readonly string[]): ExpectedReceived {
  const find = (key: string) =>
    lines.map((line) => new RegExp(`^\\s*${key}: (.+?),?$`).exec(line)?.[1]).find((value) => value !== undefined && value !== '|-' && value !== '>-');
  return values(find('expected'), find('actual'));
}

/** Mocha's "+ expected - actual" diff when it is one line each: "-4" is what the code gave. */
export function mochaValues(body: readonly string[]): ExpectedReceived {
  const header = /^\s*\+ expected - actual$/;
  const diff = oneLineDiff(body, header);
  if (!diff) return {};
  // Mocha's diff prints a string bare; the message above it quotes it (chai's `expected '[function]'
  // to equal …`, node's `+ '[function]'`): quoted again, `[function]` stays a string, never an array.
  const message = body.slice(0, body.findIndex((line) => header.test(line))).join('\n');
  const asString = (value: string) => {
    const quoted = `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
    return message.includes(quoted) ? quoted : value;
  };
  return values(asString(diff.plus), asString(diff.minus));
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

/** The lines of a "- Expected / + Received" diff after its header, up to the first line that is not one of them. */
function diffLines(body: readonly string[], header: RegExp, second: (line: string) => boolean): string[] | undefined {
  const start = body.findIndex((line) => header.test(line));
  if (start === -1 || !second(body[start + 1] ?? '')) return undefined;
  let index = start + 2;
  while (index < body.length && (body[index] ?? '').trim() === '') index++;
  // jest indents the whole diff under its test's heading.
  const indent = /^ */.exec(body[start] ?? '')?.[0] ?? '';
  const lines: string[] = [];
  for (; index < body.length; index++) {
    const line = (body[index] ?? '').startsWith(indent) ? (body[index] ?? '').slice(indent.length) : '';
    if (!/^(?:[-+] | {2}|@@ )/.test(line) || line.trim() === '') break;
    lines.push(line);
  }
  return lines.length > 0 ? lines : undefined;
}

/** Both sides of a diff printed whole (no `@@` hunks): context and `-` lines, context and `+` lines, each joined into one line. */
function wholeDiff(body: readonly string[], header: RegExp, second: (line: string) => boolean): ExpectedReceived | undefined {
  const lines = diffLines(body, header, second);
  if (!lines || lines.some((line) => line.startsWith('@@ '))) return undefined;
  const side = (mark: string) => lines.filter((line) => !line.startsWith(mark === '-' ? '+' : '-')).map((line) => line.slice(2).trim()).join(' ');
  const expected = side('-');
  const received = side('+');
  if (!/^[[{]|^(?:Array|Object) /.test(received) || expected.length > MAX_DIFF_VALUE || received.length > MAX_DIFF_VALUE) return undefined;
  return { expected, received };
}

/** A diff cut into hunks that changed one line: that line's two values (`"c": 6,` → `6`). */
function changedLine(body: readonly string[], header: RegExp, second: (line: string) => boolean): ExpectedReceived | undefined {
  const lines = diffLines(body, header, second);
  if (!lines?.some((line) => line.startsWith('@@ '))) return undefined;
  const minus = lines?.filter((line) => line.startsWith('- ')) ?? [];
  const plus = lines?.filter((line) => line.startsWith('+ ')) ?? [];
  if (minus.length !== 1 || plus.length !== 1) return undefined;
  const leaf = (line: string) => line.slice(2).trim().replace(/^(?:"(?:[^"\\]|\\.)*"|[\w$]+): /, '').replace(/,$/, '');
  const found = values(leaf(minus[0] ?? ''), leaf(plus[0] ?? ''));
  return found.expected !== undefined && found.received !== undefined ? found : undefined;
}

/** The pair as kept: each value trimmed, one over 200 characters left out. */
export function values(expected: string | undefined, received: string | undefined): ExpectedReceived {
  const clip = (value: string) => (value.length > MAX_VALUE ? undefined : value.trim());
  const e = expected === undefined ? undefined : clip(expected);
  const r = received === undefined ? undefined : clip(received);
  return { ...(e ? { expected: e } : {}), ...(r ? { received: r } : {}) };
}
