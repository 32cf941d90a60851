import { comparableValue, valuesIn, type WrittenValue } from './structured-values.js';
import { isCommentLine } from './test-declarations.js';
import type { TestSyntax } from './syntax/types.js';

export interface TestChange {
  /** 0-based, in `after`: the line to name. */
  offset: number;
  detail: string;
}

/** What the runner printed when the test failed. */
export interface PrintedValues {
  expected?: string;
  received?: string;
}

interface CodeLine {
  offset: number;
  text: string;
}

/**
 * How a test that was failing at a block was changed so that it passes: its lines then (`before`)
 * and now (`after`), each from its declaration (or first decorator) to its end, and the values
 * the report showed. The most telling finding, or `undefined` when its checks were left as they were.
 */
export function judgeTestChange(before: readonly string[], after: readonly string[], printed: PrintedValues, syntax: TestSyntax): TestChange | undefined {
  const old = code(before);
  const now = code(after);
  if (old.map((line) => line.text).join('\n') === now.map((line) => line.text).join('\n')) return undefined;
  const assertionsBefore = total(old, syntax);
  if (assertionsBefore === 0) return undefined;
  const assertionsNow = total(now, syntax);
  const body = syntax.bodyOf(now.map((line) => line.text));
  const inner = now.slice(body.from, body.to);
  const declaration = now[Math.max(0, body.from - 1)]?.offset ?? 0;
  if (assertionsNow === 0 && inner.every((line) => TRIVIAL.test(line.text))) return { offset: declaration, detail: 'test body emptied' };
  const first = inner[0];
  const oldBody = syntax.bodyOf(old.map((line) => line.text));
  if (first && EARLY_RETURN.test(first.text) && !EARLY_RETURN.test(old[oldBody.from]?.text ?? '')) {
    return { offset: first.offset, detail: 'returns at the top of the test, before its assertions' };
  }
  const { added, removed } = difference(old, now);
  const rewritten = rewrittenTo(added, old, now, returned(old, printed), syntax);
  if (rewritten) return rewritten;
  const strongBefore = old.filter((line) => syntax.matcherOf(line.text)?.kind === 'strong').length;
  const strongNow = now.filter((line) => syntax.matcherOf(line.text)?.kind === 'strong').length;
  const lostStrong = removed.map((line) => syntax.matcherOf(line.text)).find((matcher) => matcher?.kind === 'strong');
  const weak = added.find((line) => syntax.matcherOf(line.text)?.kind === 'weak');
  if (lostStrong && weak && strongNow < strongBefore) {
    return { offset: weak.offset, detail: `matcher weakened (${lostStrong.name} → ${syntax.matcherOf(weak.text)?.name ?? ''})` };
  }
  if (assertionsNow < assertionsBefore) return { offset: declaration, detail: 'assertion deleted' };
  return undefined;
}

/** Brackets, `pass`, `...` and a lone docstring: a body with nothing else does nothing. */
const TRIVIAL = /^(?:[\s;{}()[\],]*|pass|\.\.\.|[rRuU]?(?:"""[\s\S]*"""|'''[\s\S]*'''|"[^"]*"|'[^']*'))$/;
const EARLY_RETURN = /^return\s*;?$/;

/**
 * The value the code returned, as printed. Runners that print two sides without saying which is
 * the code's (Rust's left/right, pytest's `assert a == b`) put the left one in `received`: when
 * that one is written in the test already, the code's is the other.
 */
function returned(old: CodeLine[], printed: PrintedValues): string | undefined {
  const { expected, received } = printed;
  if (received === undefined || expected === undefined) return received;
  const written = new Set(valuesIn(old.map((line) => line.text).join('\n')).map((found) => found.value));
  const inTest = (value: string) => {
    const canonical = comparableValue(value);
    return canonical !== undefined && written.has(canonical);
  };
  return inTest(received) && !inTest(expected) ? expected : received;
}

const BINDING = /^(?:(?:const|let(?:\s+mut)?|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::\s*[^=]+?)?\s*(?::=|=)(?!=)/;
const MAX_SHOWN = 60;

/**
 * A value the test holds more often now than at the block, equal to what the code returned, on a
 * changed line that checks a value — or inside an array or object that starts on one, or on a
 * binding (`const want = …`, `want := …`) such a line reads.
 */
function rewrittenTo(added: CodeLine[], old: CodeLine[], now: CodeLine[], received: string | undefined, syntax: TestSyntax): TestChange | undefined {
  const value = received === undefined ? undefined : comparableValue(received);
  if (value === undefined || received === undefined) return undefined;
  const before = valuesIn(old.map((line) => line.text).join('\n')).filter((found) => found.value === value).length;
  const code = located(now);
  const candidates = code.values.filter((found) => found.value === value);
  if (candidates.length <= before) return undefined;
  const texts = now.map((line) => line.text);
  const checks = new Set(now.flatMap((line, index) => (syntax.countAssertions(line.text) > 0 || syntax.holdsExpectation(texts, index) ? [index] : [])));
  const checked = (index: number) => {
    if (checks.has(index)) return true;
    const binding = BINDING.exec(texts[index] ?? '')?.[1];
    if (binding === undefined) return false;
    const reads = new RegExp(`(?<![\\w$])${binding.replace('$', '\\$')}(?![\\w$])`);
    return texts.some((other, at) => at !== index && checks.has(at) && reads.test(other));
  };
  const changed = new Set(added.map((line) => line.offset));
  for (const found of candidates) {
    const [first, last] = [code.lineAt(found.start), code.lineAt(found.end - 1)];
    const edited = now.slice(first, last + 1).find((line) => changed.has(line.offset));
    if (!edited) continue;
    const outer = code.values.find((other) => other.composite && other.start <= found.start && found.end <= other.end);
    if (!checked(first) && !(outer && checked(code.lineAt(outer.start)))) continue;
    const shown = received.length > MAX_SHOWN ? `${received.slice(0, MAX_SHOWN - 1)}…` : received;
    return { offset: edited.offset, detail: `expectation changed to the value the code returned (${shown})` };
  }
  return undefined;
}

/** The values in the test's code lines, and the line (an index into them) a character offset is on. */
function located(lines: CodeLine[]): { values: WrittenValue[]; lineAt: (offset: number) => number } {
  const starts: number[] = [];
  let length = 0;
  for (const line of lines) {
    starts.push(length);
    length += line.text.length + 1;
  }
  const lineAt = (offset: number) => {
    let index = 0;
    while (index + 1 < starts.length && (starts[index + 1] ?? 0) <= offset) index++;
    return index;
  };
  return { values: valuesIn(lines.map((line) => line.text).join('\n')), lineAt };
}

function difference(old: CodeLine[], now: CodeLine[]): { added: CodeLine[]; removed: CodeLine[] } {
  const count = (lines: CodeLine[]) => {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line.text, (counts.get(line.text) ?? 0) + 1);
    return counts;
  };
  const inOld = count(old);
  const inNow = count(now);
  const added = now.filter((line) => {
    const left = inOld.get(line.text) ?? 0;
    inOld.set(line.text, left - 1);
    return left <= 0;
  });
  const removed = old.filter((line) => {
    const left = inNow.get(line.text) ?? 0;
    inNow.set(line.text, left - 1);
    return left <= 0;
  });
  return { added, removed };
}

function total(lines: CodeLine[], syntax: TestSyntax): number {
  return lines.reduce((sum, line) => sum + syntax.countAssertions(line.text), 0);
}

/** Code lines, trimmed, without blank lines, `//` and `#` lines and `/* … *\/` blocks. */
function code(lines: readonly string[]): CodeLine[] {
  const kept: CodeLine[] = [];
  let inBlock = false;
  lines.forEach((line, offset) => {
    const text = line.trim();
    if (inBlock) {
      if (text.includes('*/')) inBlock = false;
      return;
    }
    if (text.startsWith('/*') && !text.includes('*/')) {
      inBlock = true;
      return;
    }
    if (text === '' || isCommentLine(text)) return;
    kept.push({ offset, text });
  });
  return kept;
}
