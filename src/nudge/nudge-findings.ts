import { isTestPath } from '../tamper/classify-path.js';
import { normalize, scanAddedLines } from '../tamper/scan-file.js';
import type { FileChange, TamperFinding } from '../tamper/tamper-finding.js';
import { syntaxFor } from '../tamper/test-syntax.js';

/**
 * What one edit did to the checks, from its own lines alone: the stop's line detectors (a skip, a
 * suppression, a weakened config) and, in a test file, an assertion that pinned a value replaced by
 * one that does not. A line the edit removed and added again elsewhere is a move, not new.
 */
export function nudgeFindings(change: FileChange): TamperFinding[] {
  const removed = new Map<string, number>();
  for (const line of change.removed) removed.set(normalize(line), (removed.get(normalize(line)) ?? 0) + 1);
  const isNew = (text: string) => {
    const left = removed.get(normalize(text)) ?? 0;
    if (left > 0) removed.set(normalize(text), left - 1);
    return left === 0;
  };
  const weakened = weakenedMatcher(change);
  return [...scanAddedLines(change, isNew), ...(weakened ? [weakened] : [])].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

function weakenedMatcher(change: FileChange): TamperFinding | undefined {
  if (!isTestPath(change.path) && !change.path.endsWith('.rs')) return undefined;
  const syntax = syntaxFor(change.path);
  const strength = (text: string) => syntax.matcherOf(text.trim());
  const lost = change.removed.map(strength).filter((matcher) => matcher?.kind === 'strong');
  const gained = change.added.filter((line) => strength(line.text)?.kind === 'strong').length;
  const weak = change.added.find((line) => strength(line.text)?.kind === 'weak');
  const first = lost[0];
  if (!first || !weak || gained >= lost.length) return undefined;
  return { path: change.path, line: weak.line, kind: 'weakened-test', detail: `matcher weakened (${first.name} → ${strength(weak.text)?.name ?? ''})` };
}
