import { cleanText } from './clean-text.js';
import { diagnosticId, numberRepeats } from './diagnostic-id.js';
import type { Failure, Filtered } from './filter.js';
import { buildFiltered } from './js/build-filtered.js';

// `--pretty false`: "file(line,col): error TS2322: message", the message's chain indented under it.
// `--pretty`: "file:line:col - error TS2322: message", the chain, the source line with squiggles,
// related locations indented ("  file:line:col", source, note; TypeScript 7 puts the note on the
// location's line: "  file:line:col - note"), "Found N errors in M files." and a per-file table. A
// config error has no file: "error TS5023: ...".
const PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$/;
const GLOBAL = /^(error|warning|message) (TS\d+): (.*)$/;
const RELATED = /^\s+(\S.*?):(\d+):(\d+)(?: - (.+))?$/;
const SOURCE = /^\s*\d*\s*$|^\s*\d+ /;
const FOUND = /^Found \d+ errors?\b/;
const TABLE = /^(?:Errors\s+Files|\s+\d+\s+\S.*:\d+)$/;

interface Diagnostic {
  file?: string;
  line?: number;
  code: string;
  lines: string[];
}

export function tscFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const diagnostics: Diagnostic[] = [];
  const summary: string[] = [];
  let current: Diagnostic | undefined;
  let pretty = false;
  for (const line of lines) {
    const plain = PLAIN.exec(line);
    const fancy = plain ? null : PRETTY.exec(line);
    const head = plain ?? fancy;
    if (head) {
      pretty = fancy !== null;
      const [, file = '', row = '', column = '', severity = '', code = '', message = ''] = head;
      current = { file, line: Number(row), code, lines: [`${file}(${row},${column}): ${severity} ${code}: ${message}`] };
      diagnostics.push(current);
      continue;
    }
    const global = GLOBAL.exec(line);
    if (global) {
      current = { code: global[2] ?? '', lines: [line] };
      diagnostics.push(current);
      continue;
    }
    if (FOUND.test(line)) {
      summary.push(line);
      current = undefined;
      continue;
    }
    if (!current || line.trim() === '' || TABLE.test(line)) continue;
    if (!pretty) {
      if (/^\s/.test(line)) current.lines.push(line);
      continue;
    }
    const related = RELATED.exec(line);
    if (related) {
      current.lines.push(`  ${related[1]}(${related[2]},${related[3]}):${related[4] === undefined ? '' : ` ${related[4]}`}`);
      continue;
    }
    // Source lines and squiggles: the location says where; the plain form the preset runs has none either.
    if (SOURCE.test(line) || /^\s*~+\s*$/.test(line)) continue;
    const last = current.lines.at(-1) ?? '';
    if (last.endsWith('):') && /^\s{2}\S/.test(last)) current.lines[current.lines.length - 1] = `${last} ${line.trim()}`;
    else current.lines.push(line);
  }
  const failures: Failure[] = numberRepeats(
    diagnostics.map((diagnostic) => {
      const message = (diagnostic.lines[0] ?? '').replace(/^.*?(?:error|warning|message) TS\d+: /, '');
      return { id: diagnosticId(diagnostic.file, diagnostic.code, message), rule: diagnostic.code, ...(diagnostic.file === undefined ? {} : { file: diagnostic.file, line: diagnostic.line }), message };
    }),
  );
  // `--pretty false` prints no totals; the count is what the agent needs when most errors are left out.
  if (summary.length === 0 && diagnostics.length > 0) summary.push(countLine(diagnostics));
  return buildFiltered({ items: diagnostics.map((diagnostic) => diagnostic.lines), noun: 'errors', summary, failures }, lines, raw);
}

function countLine(diagnostics: readonly Diagnostic[]): string {
  const files = new Set(diagnostics.map((diagnostic) => diagnostic.file ?? ''));
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  return `${plural(diagnostics.length, 'diagnostic')} in ${plural(files.size, 'file')}.`;
}
