import { cleanText } from './clean-text.js';
import type { Failure, Filtered } from './filter.js';
import { buildFiltered } from './js/build-filtered.js';

// `biome check`: each diagnostic opens with "file:line:col category  FIXABLE  ━━━" (a whole-file one,
// like "file format ━━━", has no position), then "  × message" (! warning, i info; ✖ ⚠ ℹ when
// coloured), code frames ("  > 3 │ ..." marks the line), notes, suggested fixes and diffs; then the
// totals, and a closing "check ━━━" diagnostic that only says errors were emitted.
const HEADER = /^(\S.*?)\s+━{3,}$/;
const LOCATED = /^(.+?):(\d+):(\d+) (\S+)(.*)$/;
const MARKER = /^\s*([×✖!⚠iℹ]) (.*)$/;
const POINTED = /^\s*>\s*\d+\s*│/;
const TOTALS = /^(?:Found \d+ \w+\.|The number of diagnostics exceeds|Diagnostics not shown: \d+|Skipped \d+ suggested fix)/;
const TIMING = /^Checked \d+ files? in /;
const SYMBOLS: Record<string, string> = { '✖': '×', '⚠': '!', ℹ: 'i' };
const RANK: Record<string, number> = { '×': 0, '!': 1, i: 2 };

interface Diagnostic {
  header: string;
  file?: string;
  line?: number;
  category: string;
  lines: string[];
  severity: string;
  message: string;
}

export function biomeFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const diagnostics: Diagnostic[] = [];
  const summary: string[] = [];
  let current: Diagnostic | undefined;
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header?.[1]) {
      current = parseHeader(header[1]);
      diagnostics.push(current);
      continue;
    }
    if (TIMING.test(line)) {
      current = undefined;
      continue;
    }
    if (TOTALS.test(line)) {
      summary.push(line.trim());
      current = undefined;
      continue;
    }
    if (!current || line.trim() === '') continue;
    const marker = MARKER.exec(line);
    if (marker) {
      const symbol = SYMBOLS[marker[1] ?? ''] ?? marker[1] ?? '';
      if (current.message === '') Object.assign(current, { severity: symbol, message: marker[2] ?? '' });
      current.lines.push(`  ${symbol} ${marker[2] ?? ''}`);
    } else if (POINTED.test(line)) current.lines.push(`    ${line.trim()}`);
    else if (!line.includes('│') && !/^\s*[─]+/.test(line)) current.lines.push(`    ${line.trim()}`);
  }
  // The closing "check" diagnostic restates the verdict the totals already give.
  const kept = diagnostics.filter((diagnostic) => !(diagnostic.file === undefined && diagnostic.header === 'check'));
  const ordered = [...kept].sort((a, b) => (RANK[a.severity] ?? 3) - (RANK[b.severity] ?? 3));
  const failures: Failure[] = ordered.map((diagnostic) => ({
    id: `${diagnostic.file ?? diagnostic.header}:${diagnostic.line ?? 0}:${diagnostic.category}`,
    ...(diagnostic.file === undefined ? {} : { file: diagnostic.file }),
    ...(diagnostic.line === undefined ? {} : { line: diagnostic.line }),
    message: diagnostic.message,
  }));
  return buildFiltered({ items: ordered.map((diagnostic) => [diagnostic.header, ...diagnostic.lines]), noun: 'problems', summary: summary.length > 0 ? [summary.join(' ')] : [], failures }, lines, raw);
}

function parseHeader(text: string): Diagnostic {
  const header = text.replace(/\s{2,}/g, ' ');
  const located = LOCATED.exec(header);
  if (located) return { header, file: located[1], line: Number(located[2]), category: located[4] ?? '', lines: [], severity: '', message: '' };
  // "package.json format": a file and a category, or a bare category ("check").
  const words = header.split(' ');
  const category = words.length > 1 ? words.at(-1) ?? '' : header;
  return { header, ...(words.length > 1 ? { file: words.slice(0, -1).join(' ') } : {}), category, lines: [], severity: '', message: '' };
}
