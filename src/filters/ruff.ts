import { cleanText } from './clean-text.js';
import { diagnosticId, numberRepeats } from './diagnostic-id.js';
import type { Failure, Filtered } from './filter.js';
import { collectFiltered } from './native/collect-filtered.js';

// Rule codes (F401, UP006, RUF100) or named diagnostics (invalid-syntax:).
const RULE = String.raw`(?<code>[A-Z]{1,4}\d{2,4}|[a-z][\w-]*:|[A-Z]\w*Error:)`;
// Concise, and the full format before ruff 0.12: "app.py:1:8: F401 [*] `os` imported but unused".
const LOCATED = new RegExp(String.raw`^(?<file>.+?):(?<line>\d+):(?<col>\d+): ${RULE} (?:\[\*\] )?(?<message>.*)$`);
// The full format since ruff 0.12: "F401 [*] `os` imported but unused" over " --> app.py:1:8".
const HEADED = new RegExp(String.raw`^${RULE} (?:\[\*\] )?(?<message>.*)$`);
const ARROW = /^\s*--> (.+?):(\d+):(\d+)$/;
const SOURCE = /^\s*\d+ \|/;
const GUTTER = /^\s*\|/;
const TOTALS = /^(?:Found \d+ errors?|\[\*\] \d+ fixable|No fixes available|All checks passed!|\d+ files? would be reformatted|\d+ files? already formatted)/;
// `ruff format --diff`: a unified diff per file ("--- app.py" over "+++ app.py").
const DIFF_HEAD = /^--- (\S.*)$/;

/**
 * `ruff check` (full, concise and the older full layout): one item per diagnostic with its rule id,
 * location, the flagged source line with its markers and the help line; other context lines go.
 * `ruff format --check`/`--diff`: one item per file with its diff and the command that formats it.
 */
export function ruffFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const out = collectFiltered('problems', raw, lines);
  const summary: string[] = [];
  let current: string[] | undefined;
  let failure: Failure | undefined;
  // The failure after its item: the collector ties a failure to the item kept just before it.
  const flush = () => {
    if (current !== undefined) out.item(current);
    if (failure !== undefined) out.fail(failure);
    current = undefined;
    failure = undefined;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const arrow = ARROW.exec(lines[index + 1] ?? '');
    const headed = arrow === null ? null : HEADED.exec(line);
    const located = headed === null ? LOCATED.exec(line) : null;
    const found = headed ?? located;
    if (found?.groups !== undefined) {
      flush();
      const file = located?.groups?.file ?? arrow?.[1] ?? '';
      const lineNumber = Number(located?.groups?.line ?? arrow?.[2]);
      const code = (found.groups.code ?? '').replace(/:$/, '');
      const message = found.groups.message ?? '';
      current = code === 'unformatted' ? [line, formatHint(file)] : [line];
      failure = { id: diagnosticId(file, code, message), rule: code, file, line: lineNumber, message };
      continue;
    }
    const diffed = DIFF_HEAD.exec(line);
    if (diffed?.[1] !== undefined && lines[index + 1] === `+++ ${diffed[1]}`) {
      flush();
      current = [formatHint(diffed[1]), line];
      failure = { id: diagnosticId(diffed[1], 'unformatted', 'File would be reformatted'), rule: 'unformatted', file: diffed[1], message: 'File would be reformatted' };
      continue;
    }
    if (TOTALS.test(line)) {
      flush();
      summary.push(line);
    } else if (line === '') flush();
    else if (current === undefined) out.item([line]);
    else if (keepInDiagnostic(line, lines[index + 1] ?? '')) current.push(line);
  }
  flush();
  const result = out.done(summary);
  return { ...result, failures: numberRepeats(result.failures) };
}

function formatHint(file: string): string {
  return `Run \`ruff format ${file}\` to format it.`;
}

/** The location, the flagged source line and its markers, help and notes; not the context around them. */
function keepInDiagnostic(line: string, next: string): boolean {
  if (ARROW.test(line)) return true;
  if (SOURCE.test(line)) return GUTTER.test(next) && /[\^~-]/.test(next) && !SOURCE.test(next);
  if (GUTTER.test(line)) return line.replace(GUTTER, '').trim() !== '';
  return true;
}
