import { cleanText } from './clean-text.js';
import { diagnosticId, numberRepeats } from './diagnostic-id.js';
import type { Failure, Filtered } from './filter.js';
import { buildFiltered } from './js/build-filtered.js';
import { genericFilter } from './generic.js';

// The stylish formatter: a file's path on its own line, then "  line:col  severity  message  rule"
// aligned in columns (a parse error has no rule), then "✖ 8 problems (6 errors, 2 warnings)".
const PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)\s*$/;
const RULE = /^(.*?)\s{2,}(@?[\w-]+(?:\/[\w-]+)*)$/;
const TOTALS = /^✖ \d+ problems?\b|potentially fixable with the `--fix` option|^ESLint found too many warnings/;
const CRASH_NOISE = /^(?:Oops! Something went wrong! :\(|ESLint: \d+\.\d+\.\d+)$/;

interface Problem {
  file: string;
  line: number;
  severity: string;
  rule: string | undefined;
  text: string;
}

export function eslintFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const problems: Problem[] = [];
  const summary: string[] = [];
  let file = '';
  for (const line of lines) {
    if (TOTALS.test(line)) {
      summary.push(line.trim());
      continue;
    }
    const problem = PROBLEM.exec(line);
    if (problem) {
      const [, row = '', column = '', severity = '', rest = ''] = problem;
      const ruled = RULE.exec(rest);
      const message = ruled?.[1] ?? rest;
      const rule = ruled?.[2];
      problems.push({ file, line: Number(row), severity, rule, text: `${file}:${row}:${column}  ${severity}  ${message}${rule ? `  ${rule}` : ''}` });
      continue;
    }
    if (/^\S/.test(line)) file = line.trim();
  }
  if (problems.length === 0) return genericFilter(lines.filter((line) => !CRASH_NOISE.test(line)).join('\n'));
  // Errors are what fail the gate: with hundreds of problems, warnings must not crowd them out.
  const ordered = [...problems.filter((problem) => problem.severity === 'error'), ...problems.filter((problem) => problem.severity !== 'error')];
  const failures: Failure[] = numberRepeats(
    ordered.map((problem) => {
      const message = problem.text.slice(problem.text.indexOf(`  ${problem.severity}  `) + problem.severity.length + 4).replace(/\s{2}\S+$/, '');
      return { id: diagnosticId(problem.file, problem.rule ?? problem.severity, message), rule: problem.rule ?? problem.severity, file: problem.file, line: problem.line, message };
    }),
  );
  return buildFiltered({ items: ordered.map((problem) => [problem.text]), noun: 'problems', summary, failures }, lines, raw);
}
