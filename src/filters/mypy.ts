import { cleanText } from './clean-text.js';
import { diagnosticId, numberRepeats } from './diagnostic-id.js';
import type { Filtered } from './filter.js';
import { collectFiltered } from './native/collect-filtered.js';

const DIAGNOSTIC = /^(.+?):(\d+)(?::\d+)*: (error|note|warning): (.*)$/;
const CODE = /\s+\[([a-z][a-z0-9-]*)\]$/;
const TOTALS = /^(?:Found \d+ errors? in \d+ files?|Success: no issues found)/;

/**
 * mypy (plain, --pretty, coloured): one item per error with its notes and source excerpt; the error
 * code ([arg-type]) kept and used in the failure's id (src/filters/diagnostic-id.ts). Notes that stand alone (reveal_type) are items too.
 */
export function mypyFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const out = collectFiltered('errors', raw, lines);
  const summary: string[] = [];
  let current: { lines: string[]; file: string; line: number } | undefined;
  let pendingFailure: { file: string; line: number; message: string } | undefined;
  const flush = () => {
    if (current !== undefined) out.item(current.lines);
    if (current !== undefined && pendingFailure !== undefined) {
      // --pretty wraps long messages onto unindented lines; its source excerpt is indented.
      const wrapped = current.lines.slice(1);
      const end = wrapped.findIndex((line) => /^\s/.test(line) || DIAGNOSTIC.test(line));
      const text = [pendingFailure.message, ...wrapped.slice(0, end === -1 ? undefined : end)].join(' ');
      const code = CODE.exec(text)?.[1];
      const message = text.replace(CODE, '');
      out.fail({ id: diagnosticId(pendingFailure.file, code ?? 'error', message), rule: code ?? 'error', file: pendingFailure.file, line: pendingFailure.line, message });
    }
    current = undefined;
    pendingFailure = undefined;
  };
  for (const line of lines) {
    if (TOTALS.test(line)) {
      flush();
      summary.push(line);
      continue;
    }
    const match = DIAGNOSTIC.exec(line);
    if (match === null) {
      if (current !== undefined && line !== '') current.lines.push(line);
      else if (line !== '') out.item([line]);
      continue;
    }
    const [, file = '', lineText = '0', severity, message = ''] = match;
    const lineNumber = Number(lineText);
    if (severity === 'note' && current !== undefined && current.file === file && current.line === lineNumber) {
      current.lines.push(line);
      continue;
    }
    flush();
    current = { lines: [line], file, line: lineNumber };
    if (severity === 'error') pendingFailure = { file, line: lineNumber, message };
  }
  flush();
  const result = out.done(summary);
  return { ...result, failures: numberRepeats(result.failures) };
}
