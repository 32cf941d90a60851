import { cleanText } from './clean-text.js';
import { diagnosticId, numberRepeats } from './diagnostic-id.js';
import type { Failure, Filtered } from './filter.js';
import { buildFiltered } from './js/build-filtered.js';

// `biome check`: each diagnostic opens with "file:line:col category  FIXABLE  ━━━" (a whole-file one,
// like "file format ━━━", has no position), then "  × message" (! warning, i info; ✖ ⚠ ℹ when
// coloured), code frames ("  > 3 │ ..." marks the line), notes, suggested fixes and diffs; then the
// totals, and a closing "check ━━━" diagnostic that only says errors were emitted. A formatting one
// ("file format") shows its diff as "  3   │ - old" / "    3 │ + new" lines: the changed ones are kept.
const HEADER = /^(\S.*?)\s+━{3,}$/;
const LOCATED = /^(.+?):(\d+):(\d+) (\S+)(.*)$/;
const MARKER = /^\s*([×✖!⚠iℹ]) (.*)$/;
const POINTED = /^\s*>\s*\d+\s*│/;
const TOTALS = /^(?:Found \d+ \w+\.|The number of diagnostics exceeds|Diagnostics not shown: \d+|Skipped \d+ suggested fix)/;
const TIMING = /^Checked \d+ files? in /;
const CHANGED = /^\s*\d*\s+\d*\s*│ [-+] /;
const MAX_CHANGED = 20;
const COMMANDS = new Set(['check', 'format', 'lint', 'ci']);
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
  /** How many changed lines a formatting diagnostic showed (the first MAX_CHANGED are kept). */
  changed: number;
}

export function biomeFilter(raw: string, runner = 'npx'): Filtered {
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
      const first = current.message === '';
      if (first) Object.assign(current, { severity: symbol, message: marker[2] ?? '' });
      current.lines.push(`  ${symbol} ${marker[2] ?? ''}`);
      if (first && current.category === 'format' && current.file !== undefined) current.lines.push(`  i Run \`${runner} biome format --write ${current.file}\` to format it.`);
    } else if (current.category === 'format' && CHANGED.test(line)) {
      if (current.changed++ < MAX_CHANGED) current.lines.push(`    ${line.trim()}`);
    } else if (POINTED.test(line)) current.lines.push(`    ${line.trim()}`);
    else if (!line.includes('│') && !/^\s*[─]+/.test(line)) current.lines.push(`    ${line.trim()}`);
  }
  // The closing diagnostic, named after the command ("check", "format" …), restates the verdict the totals give.
  const kept = diagnostics.filter((diagnostic) => !(diagnostic.file === undefined && COMMANDS.has(diagnostic.header)));
  const ordered = [...kept].sort((a, b) => (RANK[a.severity] ?? 3) - (RANK[b.severity] ?? 3));
  const failures: Failure[] = numberRepeats(
    ordered.map((diagnostic) => ({
      id: diagnosticId(diagnostic.file ?? diagnostic.header, diagnostic.category, diagnostic.message),
      rule: diagnostic.category,
      ...(diagnostic.file === undefined ? {} : { file: diagnostic.file }),
      ...(diagnostic.line === undefined ? {} : { line: diagnostic.line }),
      message: diagnostic.message,
    })),
  );
  const items = ordered.map((diagnostic) => [diagnostic.header, ...diagnostic.lines, ...(diagnostic.changed > MAX_CHANGED ? [`    … ${diagnostic.changed - MAX_CHANGED} more changed lines`] : [])]);
  return buildFiltered({ items, noun: 'problems', summary: summary.length > 0 ? [summary.join(' ')] : [], failures }, lines, raw);
}

function parseHeader(text: string): Diagnostic {
  // Biome 2.0's betas print a project's paths from its root: "/src/x.ts". Biome prints no absolute paths.
  const header = text.replace(/\s{2,}/g, ' ').replace(/^\/(?=[^/\s])/, '');
  const located = LOCATED.exec(header);
  if (located) return { header, file: located[1], line: Number(located[2]), category: located[4] ?? '', lines: [], severity: '', message: '', changed: 0 };
  // "package.json format": a file and a category, or a bare category ("check").
  const words = header.split(' ');
  const category = words.length > 1 ? words.at(-1) ?? '' : header;
  return { header, ...(words.length > 1 ? { file: words.slice(0, -1).join(' ') } : {}), category, lines: [], severity: '', message: '', changed: 0 };
}
