/** Consecutive identical lines become one line and a count. */
export function collapseRepeats(lines: readonly string[]): string[] {
  const kept: string[] = [];
  let repeats = 0;
  for (const line of lines) {
    if (line === kept.at(-1) && line.trim() !== '') {
      repeats++;
      continue;
    }
    if (repeats > 0) kept.push(`  (the line above repeated ${repeats} more times)`);
    repeats = 0;
    kept.push(line);
  }
  if (repeats > 0) kept.push(`  (the line above repeated ${repeats} more times)`);
  return kept;
}

/** Removes the indentation all non-blank lines share. */
export function dedent(lines: readonly string[]): string[] {
  const widths = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0);
  const common = widths.length === 0 ? 0 : Math.min(...widths);
  return lines.map((line) => line.slice(Math.min(common, /^ */.exec(line)?.[0].length ?? 0)));
}

const DURATION = /\s*\(\d+(?:\.\d+)?\s?m?s\)(?=\s*(?:#.*)?$)/;

/** "adds two numbers (1.31ms)" → "adds two numbers": durations change from run to run. */
export function stripDuration(line: string): string {
  return line.replace(DURATION, '');
}
