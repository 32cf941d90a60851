import { cleanText } from './clean-text.js';
import { diagnosticId, numberRepeats } from './diagnostic-id.js';
import type { Filtered } from './filter.js';
import { collectFiltered } from './native/collect-filtered.js';

const DIAGNOSTIC = /^\s+(\S.*?):(\d+):\d+ - (error|warning|information): (.*)$/;
const CONTINUATION = /^\s{4,}\S/;
const RULE = /\s+\((report\w+)\)$/;
const TOTALS = /^\d+ errors?, \d+ warnings?, \d+ (?:informations?|notes?)\s*$/;
const FILE_HEADER = /^\S.*\.pyi?$/;

/**
 * pyright and basedpyright (text output): one item per error with its continuation lines, the rule
 * (reportArgumentType) in the failure's id. Warnings and informations don't fail a run: left out
 * (when only they are there, the generic filter keeps everything). Paths stay absolute as printed.
 */
export function pyrightFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const out = collectFiltered('errors', raw, lines);
  const summary: string[] = [];
  let current: { lines: string[]; file: string; line: number; error: boolean } | undefined;
  const flush = () => {
    if (current?.error) {
      out.item(current.lines.map((line, index) => (index === 0 ? line.trimStart() : `  ${line.trim()}`)));
      const text = [DIAGNOSTIC.exec(current.lines[0] ?? '')?.[4] ?? '', ...current.lines.slice(1).map((line) => line.trim())].join(' ');
      const rule = RULE.exec(text)?.[1];
      const message = text.replace(RULE, '');
      out.fail({ id: diagnosticId(current.file, rule ?? 'error', message), rule: rule ?? 'error', file: current.file, line: current.line, message });
    }
    current = undefined;
  };
  for (const line of lines) {
    const match = DIAGNOSTIC.exec(line);
    if (match !== null) {
      flush();
      const [, file = '', lineText = '0', severity] = match;
      current = { lines: [line], file, line: Number(lineText), error: severity === 'error' };
      continue;
    }
    if (current !== undefined && CONTINUATION.test(line)) {
      current.lines.push(line);
      continue;
    }
    flush();
    if (TOTALS.test(line)) summary.push(line.trimEnd());
    else if (line.trim() !== '' && !FILE_HEADER.test(line)) out.item([line]);
  }
  flush();
  const result = out.done(summary);
  return { ...result, failures: numberRepeats(result.failures) };
}
