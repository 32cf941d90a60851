import type { AddedLine } from './tamper-finding.js';

/**
 * The baseline text of a file from its current text and its `-U0` diff: every added line left out,
 * every removed line put back where it stood. No second git call for what the diff already holds.
 */
export function rebuildBaseline(current: string, added: AddedLine[], removed: string[], removedBefore: number[]): string {
  const lines = current.split('\n');
  const addedLines = new Set(added.map((line) => line.line));
  const out: string[] = [];
  let next = 0;
  for (let number = 1; number <= lines.length; number++) {
    while (next < removed.length && (removedBefore[next] ?? 0) <= number) out.push(removed[next++] ?? '');
    if (!addedLines.has(number)) out.push(lines[number - 1] ?? '');
  }
  while (next < removed.length) out.push(removed[next++] ?? '');
  return out.join('\n');
}
