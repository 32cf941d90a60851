import type { AddedLine, FileChange } from '../tamper/tamper-finding.js';
import type { EditedFile } from './edited-file.js';

/**
 * The edit as the tamper detectors see a change: the lines it added (numbered in the file as it is
 * now) and the lines it removed. From the file before and after when the harness sent the old
 * content; else from the replaced and replacing strings, found in the file now.
 */
export function editChange(path: string, edit: EditedFile, current: string | undefined): FileChange {
  const change = { path, deleted: false, baselineKnown: true, current };
  if (current === undefined) return { ...change, created: false, added: [], removed: [] };
  const now = current.split('\n');
  if (edit.before !== undefined) return { ...change, created: edit.before === '', ...lineDifference(edit.before.split('\n'), now, 1) };
  if (edit.pairs.length === 0) return { ...change, created: true, added: now.map((text, index) => ({ line: index + 1, text })), removed: [] };
  const added: AddedLine[] = [];
  const removed: string[] = [];
  for (const pair of edit.pairs) {
    const at = current.indexOf(pair.new);
    const firstLine = at === -1 ? 1 : current.slice(0, at).split('\n').length;
    const difference = lineDifference(pair.old.split('\n'), pair.new.split('\n'), firstLine);
    added.push(...difference.added);
    removed.push(...difference.removed);
  }
  return { ...change, created: false, added, removed };
}

/** Lines of `after` that `before` does not have as often (numbered from `first`), and the reverse. */
function lineDifference(before: string[], after: string[], first: number): { added: AddedLine[]; removed: string[] } {
  const left = new Map<string, number>();
  for (const line of before) left.set(line, (left.get(line) ?? 0) + 1);
  const added: AddedLine[] = [];
  after.forEach((line, index) => {
    const count = left.get(line) ?? 0;
    if (count > 0) left.set(line, count - 1);
    else added.push({ line: first + index, text: line });
  });
  const kept = new Map<string, number>();
  for (const line of after) kept.set(line, (kept.get(line) ?? 0) + 1);
  const removed = before.filter((line) => {
    const count = kept.get(line) ?? 0;
    if (count > 0) kept.set(line, count - 1);
    return count === 0;
  });
  return { added, removed };
}
