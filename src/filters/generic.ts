import { cleanText } from './clean-text.js';
import type { Filtered } from './filter.js';
import { readFormatterOutput } from './formatter-output.js';
import { NATIVE_FRAME, isPythonToolPath } from './native/python-frames.js';
import { sliceWhole } from './whole-text.js';

const LIBRARY_FRAME = /^\s*(?:at\s|❯\s|→\s).*(?:node_modules[\\/]|node:internal|\(internal\/|\binternal\/(?:modules|process|main)\/)/;
const MAX_LINE = 400;
const FRAME_BODY = /^\s{4,}\S/;
// Timing changes from run to run; the agent's report must be the same bytes for the same failures.
const TIMING_LINE = /^\s*(?:Start at|Duration|Time:|Finished in|Ran all test suites|real|user|sys)\b.*\d/;
const TRAILING_TIME = /[ \t]*(?:\bin )?[([]?\d+(?:\.\d+)?\s?(?:ms|s|sec)[)\]]?(?=[ \t=]*$)/;

/**
 * For any tool: strips escapes, drops stack frames inside libraries and Node itself and timing
 * figures, collapses repeated lines and runs of blank lines. Keeps everything else in order.
 * Names no failures, but for a formatter's check it knows (src/filters/formatter-output.ts).
 */
export function genericFilter(raw: string, runner = 'npx'): Filtered {
  const lines: string[] = [];
  let dropped = 0;
  let repeats = 0;
  const cleaned = cleanText(raw);
  let inLibraryFrame = false;
  for (const rawLine of cleaned) {
    // A Python frame in an installed package or the standard library goes with its code and carets.
    const pythonFrame = NATIVE_FRAME.exec(rawLine);
    if (pythonFrame !== null) inLibraryFrame = isPythonToolPath(pythonFrame[1] ?? '');
    else if (inLibraryFrame && !FRAME_BODY.test(rawLine)) inLibraryFrame = false;
    if (inLibraryFrame || LIBRARY_FRAME.test(rawLine) || TIMING_LINE.test(rawLine)) {
      dropped++;
      continue;
    }
    const line = rawLine.replace(TRAILING_TIME, '');
    const previous = lines.at(-1);
    if (line === '' && (previous === undefined || previous === '')) continue;
    if (line !== '' && line === previous) {
      repeats++;
      dropped++;
      continue;
    }
    if (repeats > 0) {
      lines.push(`  (the line above repeated ${repeats} more times)`);
      repeats = 0;
    }
    lines.push(line.length > MAX_LINE ? `${sliceWhole(line, MAX_LINE)}… (${line.length - MAX_LINE} more characters)` : line);
  }
  if (repeats > 0) lines.push(`  (the line above repeated ${repeats} more times)`);
  while (lines.at(-1) === '') lines.pop();
  // The last line of most tools is their verdict or totals: keep it however long the rest is.
  const summary = lines.length > 1 ? lines.splice(-1) : [];
  // A formatter's check (prettier, gofmt, rustfmt): its files are its failures, and the fix is said.
  const formatter = readFormatterOutput(cleaned, runner);
  if (formatter !== undefined) summary.push(formatter.fix);
  return { items: lines.map((line) => [line]), noun: 'lines', summary, dropped, failures: formatter?.failures ?? [] };
}
