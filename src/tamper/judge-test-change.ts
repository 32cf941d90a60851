import { countAssertions, matcherOf } from './assertion-rules.js';
import { canonicalValue, literalsOf } from './literals.js';
import { isCommentLine } from './test-declarations.js';

export interface TestChange {
  /** 0-based, in `after`: the line to name. */
  offset: number;
  detail: string;
}

interface CodeLine {
  offset: number;
  text: string;
}

/**
 * How a test that was failing at a block was changed so that it passes: its lines then (`before`)
 * and now (`after`), each from its declaration to its end, and the value the report said the code
 * returned. The most telling finding, or `undefined` when the test's checks were left as they were.
 */
export function judgeTestChange(before: readonly string[], after: readonly string[], received: string | undefined): TestChange | undefined {
  const old = code(before);
  const now = code(after);
  if (old.map((line) => line.text).join('\n') === now.map((line) => line.text).join('\n')) return undefined;
  const assertionsBefore = total(old);
  if (assertionsBefore === 0) return undefined;
  const assertionsNow = total(now);
  const inner = now.length > 2 ? now.slice(1, -1) : [];
  if (assertionsNow === 0 && inner.every((line) => /^[\s;{}()[\],]*$/.test(line.text))) return { offset: 0, detail: 'test body emptied' };
  const first = inner[0];
  if (first && /^return\s*;?$/.test(first.text) && !/^return\s*;?$/.test(old[1]?.text ?? '')) {
    return { offset: first.offset, detail: 'returns at the top of the test, before its assertions' };
  }
  const { added, removed } = difference(old, now);
  const rewritten = rewrittenTo(added, removed, now, received);
  if (rewritten) return rewritten;
  const strongBefore = old.filter((line) => matcherOf(line.text)?.kind === 'strong').length;
  const strongNow = now.filter((line) => matcherOf(line.text)?.kind === 'strong').length;
  const lostStrong = removed.map((line) => matcherOf(line.text)).find((matcher) => matcher?.kind === 'strong');
  const weak = added.find((line) => matcherOf(line.text)?.kind === 'weak');
  if (lostStrong && weak && strongNow < strongBefore) {
    return { offset: weak.offset, detail: `matcher weakened (${lostStrong.name} → ${matcherOf(weak.text)?.name ?? ''})` };
  }
  if (assertionsNow < assertionsBefore) return { offset: 0, detail: 'assertion deleted' };
  return undefined;
}

/** A literal new on an assertion line (or on a `const x = …` it reads) equal to what the code returned. */
function rewrittenTo(added: CodeLine[], removed: CodeLine[], now: CodeLine[], received: string | undefined): TestChange | undefined {
  const value = received === undefined ? undefined : canonicalValue(received);
  if (value === undefined || received === undefined) return undefined;
  const left = new Map<string, number>();
  for (const line of removed) for (const literal of literalsOf(line.text)) left.set(literal, (left.get(literal) ?? 0) + 1);
  for (const line of added) {
    const binding = /^(?:const|let|var)\s+([\w$]+)\s*=/.exec(line.text)?.[1];
    const checked = countAssertions(line.text) > 0 || (binding !== undefined && now.some((other) => countAssertions(other.text) > 0 && new RegExp(`(?<![\\w$])${binding.replace('$', '\\$')}(?![\\w$])`).test(other.text)));
    if (!checked) continue;
    for (const literal of literalsOf(line.text)) {
      const kept = left.get(literal) ?? 0;
      if (kept > 0) {
        left.set(literal, kept - 1);
        continue;
      }
      if (literal === value) return { offset: line.offset, detail: `expectation changed to the value the code returned (${received})` };
    }
  }
  return undefined;
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

function total(lines: CodeLine[]): number {
  return lines.reduce((sum, line) => sum + countAssertions(line.text), 0);
}

/** Code lines, trimmed, without blank lines, `//` lines and `/* … *\/` blocks. */
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
