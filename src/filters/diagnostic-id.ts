import type { Failure } from './filter.js';

// Positions a message may quote ("already defined on line 12", "from line 3", "see a.ts:4:2"): they
// move with the code, as the diagnostic's own line does.
const QUOTED_POSITIONS: Array<[RegExp, string]> = [
  [/\b(lines?) \d+(?:\s*[-–]\s*\d+)?/gi, '$1 N'],
  [/([\w./\\-]+\.\w+)(?::\d+){1,2}\b/g, '$1:N'],
];

/**
 * A diagnostic's identity without its line: file, rule and message. An edit above it moves it, and
 * it stays the same finding; the line number is for the report only (`Failure.line`).
 */
export function diagnosticId(file: string | undefined, code: string, message: string): string {
  let text = message.replace(/\s+/g, ' ').trim();
  for (const [pattern, replacement] of QUOTED_POSITIONS) text = text.replace(pattern, replacement);
  return `${file === undefined || file === '' ? '' : `${file} `}${code}: ${text}`;
}

/**
 * The k-th finding with the same identity gets " (#k)": counting, not placing, so moved findings keep
 * their ids while a new copy of an old finding in the same file is still new.
 */
export function numberRepeats(failures: readonly Failure[]): Failure[] {
  const seen = new Map<string, number>();
  return failures.map((failure) => {
    const count = (seen.get(failure.id) ?? 0) + 1;
    seen.set(failure.id, count);
    return count === 1 ? failure : { ...failure, id: `${failure.id} (#${count})` };
  });
}
