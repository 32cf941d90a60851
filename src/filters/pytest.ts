import { cleanText } from './clean-text.js';
import type { Filtered } from './filter.js';
import { collectFiltered, type Collector } from './native/collect-filtered.js';
import { pytestValues } from './native/native-values.js';
import { readPytestBlock } from './native/pytest-block.js';
import { isInternalError, readInternalError } from './native/pytest-internal-error.js';
import { isPythonLibraryPath, parsePythonLocation } from './native/python-frames.js';
import { CHAIN, readPythonTraceback, TRACEBACK_START } from './native/python-traceback.js';

const SECTION = /^={3,} (.+?) ={3,}$/;
const BLOCK = /^_{3,} (.+?) _{3,}$/;
const SHORT_SUMMARY = /^(FAILED|ERROR) (.+?)(?: - (.*))?$/;
const TOTALS = /^(?:=+ )?((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun)(?:, |(?= in )|(?= =)|$))+|no tests ran)(?: in [\d.]+s(?: \([\d:.]+\))?)?(?: =+)?$/;
const INTERRUPTED = /^!+ (.+?) !+$/;
const KEEP_OUTSIDE = /^(?:ERROR|INTERNALERROR|ImportError|usage:|pytest: error|E\s)/;
const CONFTEST_ERROR = /^ImportError while loading conftest /;

interface SummaryEntry {
  kind: string;
  id: string;
  message: string;
  used: boolean;
}

/**
 * pytest (any -q/-v level, any --tb style): one item per failing test, error and collection error,
 * named by its full node id; only user-code frames, the `>` line and the `E` lines are kept.
 */
export function pytestFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const out = collectFiltered('failures', raw, lines);
  const entries = readShortSummary(lines);
  const summary: string[] = [];
  let section = '';
  let crashShown = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const totals = TOTALS.exec(line);
    if (totals !== null) {
      summary.push(totals[1] ?? line);
      continue;
    }
    const interrupted = INTERRUPTED.exec(line);
    if (interrupted !== null) {
      summary.push(interrupted[1] ?? line);
      continue;
    }
    const header = SECTION.exec(line);
    if (header !== null) {
      section = (header[1] ?? '').toLowerCase();
      continue;
    }
    const block = BLOCK.exec(line);
    if (block !== null && (section === 'failures' || section === 'errors')) {
      const end = findBlockEnd(lines, index + 1);
      emitBlock(out, block[1] ?? '', lines.slice(index + 1, end), entries);
      index = end - 1;
      continue;
    }
    if (isInternalError(line)) {
      const internal = readInternalError(lines, index);
      out.item(internal.lines);
      crashShown ||= internal.read;
      index = internal.end - 1;
      continue;
    }
    if (section !== '') continue;
    // pytest itself died (a plugin or the package failed to import before collecting): its traceback is the report.
    if (TRACEBACK_START.test(line)) {
      const traceback = readPythonTraceback(lines, index);
      out.item(traceback.lines);
      index = traceback.end - 1;
      continue;
    }
    if (CHAIN.test(line)) {
      out.item([line]);
      continue;
    }
    if (CONFTEST_ERROR.test(line)) {
      const end = findConftestEnd(lines, index + 1);
      out.item(readConftestError(line, lines.slice(index + 1, end)));
      index = end - 1;
      continue;
    }
    if (KEEP_OUTSIDE.test(line)) out.item([line]);
  }
  for (const entry of entries.filter((candidate) => !candidate.used)) {
    out.item([`${entry.kind} ${entry.id}${entry.message === '' ? '' : ` - ${entry.message}`}`]);
    out.fail({ id: entry.id, file: entry.id.split('::')[0] ?? entry.id, message: entry.message || entry.kind });
  }
  const filtered = out.done(summary);
  return crashShown ? { ...filtered, crashShown } : filtered;
}

function findConftestEnd(lines: string[], from: number): number {
  let end = from;
  while (end < lines.length && (lines[end] ?? '').trim() !== '' && !SECTION.test(lines[end] ?? '')) end++;
  return end;
}

// `ImportError while loading conftest '…'.`, then short-style frames (`conftest.py:1: in <module>`
// and its code) and the `E` lines: the user's frames and the error stay.
function readConftestError(header: string, body: string[]): string[] {
  const kept = [header];
  let library = false;
  for (const line of body) {
    const location = parsePythonLocation(line);
    if (location !== undefined) library = isPythonLibraryPath(location.path);
    if (line.startsWith('E') || (!library && !/^\s*[\^~]+\s*$/.test(line))) kept.push(line);
  }
  return kept;
}

function readShortSummary(lines: string[]): SummaryEntry[] {
  const start = lines.findIndex((line) => /^=+ short test summary info =+$/.test(line));
  if (start === -1) return [];
  const entries: SummaryEntry[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = SHORT_SUMMARY.exec(line);
    if (match !== null) entries.push({ kind: match[1] ?? '', id: match[2] ?? '', message: match[3] ?? '', used: false });
    else if (SECTION.test(line) || TOTALS.test(line)) break;
  }
  return entries;
}

function findBlockEnd(lines: string[], from: number): number {
  let end = from;
  while (end < lines.length && !BLOCK.test(lines[end] ?? '') && !SECTION.test(lines[end] ?? '') && !TOTALS.test(lines[end] ?? '')) end++;
  return end;
}

function emitBlock(out: Collector, title: string, body: string[], entries: SummaryEntry[]): void {
  const collecting = /^ERROR collecting (.+)$/.exec(title);
  const phase = /^ERROR at (setup|teardown) of (.+)$/.exec(title);
  const name = collecting?.[1] ?? phase?.[2] ?? title;
  const entry = entries.find((candidate) => !candidate.used && matchesNodeId(candidate, name, collecting !== null || phase !== null));
  if (entry !== undefined) entry.used = true;
  const block = readPytestBlock(body);
  const file = entry?.id.split('::')[0] ?? block.locations.find((location) => !location.library)?.path;
  const id = entry?.id ?? (collecting !== null ? name : `${file ?? '?'}::${name.replaceAll('.', '::')}`);
  const heading = collecting !== null ? `ERROR collecting ${name}` : phase !== null ? `ERROR at ${phase[1]} of ${id}` : `FAILED ${id}`;
  out.item([heading, ...block.lines]);
  const line = [...block.locations].reverse().find((location) => file !== undefined && location.path.endsWith(file))?.line;
  out.fail({ id, ...(file === undefined ? {} : { file }), ...(line === undefined ? {} : { line }), message: block.message ?? entry?.message ?? heading, ...pytestValues(block.errors) });
}

function matchesNodeId(entry: SummaryEntry, name: string, error: boolean): boolean {
  if ((entry.kind === 'ERROR') !== error) return false;
  if (entry.id === name) return true;
  return entry.id.split('::').slice(1).join('.') === name;
}
