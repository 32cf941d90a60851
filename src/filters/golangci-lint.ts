import { cleanText } from './clean-text.js';
import { diagnosticId, numberRepeats } from './diagnostic-id.js';
import type { Filtered } from './filter.js';
import { collectFiltered } from './native/collect-filtered.js';

// golangci-lint's default text format: "path.go:12:5: message (linter)", then the source line and a caret.
const ISSUE = /^(.+?\.go):(\d+)(?::\d+)?: (.+) \(([\w-]+)\)$/;
// The totals (v2): "2 issues:" and "* errcheck: 1" per linter.
const TOTALS = /^\d+ issues?:$|^\* [\w-]+: \d+$/;

/**
 * `golangci-lint run`: one item per issue with the source lines it shows; the finding's identity is
 * its file, linter and message (its line moves with edits above it). The totals are the summary.
 */
export function golangciLintFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const out = collectFiltered('problems', raw, lines);
  const summary: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const issue = ISSUE.exec(line);
    if (issue !== null) {
      let end = index + 1;
      while (end < lines.length && !ISSUE.test(lines[end] ?? '') && !TOTALS.test(lines[end] ?? '') && (lines[end] ?? '') !== '') end++;
      out.item(lines.slice(index, end));
      const [, file = '', at = '', message = '', linter = ''] = issue;
      out.fail({ id: diagnosticId(file, linter, message), rule: linter, file, line: Number(at), message: `${message} (${linter})` });
      index = end - 1;
    } else if (TOTALS.test(line)) summary.push(line);
    else if (line !== '') out.item([line]);
  }
  const result = out.done(summary);
  return { ...result, failures: numberRepeats(result.failures) };
}
