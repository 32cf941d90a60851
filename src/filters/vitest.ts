import { cleanText } from './clean-text.js';
import type { Failure, Filtered } from './filter.js';
import { buildFiltered } from './js/build-filtered.js';
import { vitestValues } from './js/expected-received.js';
import { firstUserPosition, frameLocation, isLibraryFrame, isStackFrame, parsePosition } from './js/stack-frames.js';

// The default reporter (vitest 4): a per-file list (dropped), then sections headed "⎯⎯ Failed Tests 3 ⎯⎯",
// "⎯⎯ Failed Suites 1 ⎯⎯" and "⎯⎯ Unhandled Errors ⎯⎯", each failure ending in "⎯⎯[1/3]⎯", then totals.
const SECTION = /^⎯+ (.+?) ⎯+$/;
const SEPARATOR = /^⎯+(?:\[\d+\/\d+\])?⎯*$/;
const FAIL = /^\s*FAIL\s+(.+)$/;
const TOTALS = /^\s*(?:Test Files|Tests|Errors|Snapshots|Type Errors) {2}\S/;
const TIMING = /^\s*(?:Start at|Duration) {2}\S/;
const CODE_LINE = /^\s*(\d+)\|/;
const CARET_LINE = /^\s*\|[\s^]*$/;
const BOX_DRAWING_ONLY = /^[\s│┬┴╰╭╮╯─├┤┼]*$/;
// Printed before "⎯⎯ Startup Error ⎯⎯": which config failed to load, where the error alone doesn't say.
const CONFIG_FAILED = /^failed to load config from /;
const BOILERPLATE = /^(?:Vitest caught \d+ unhandled|This might cause false positive|- The error was thrown, while|- If the error occurred after)/;

interface Block {
  header: string;
  body: string[];
}

export function vitestFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const blocks: Block[] = [];
  const summary: string[] = [];
  let inFailures = false;
  let current: Block | undefined;
  let configFailed: string | undefined;
  const close = () => {
    if (current) blocks.push(current);
    current = undefined;
  };
  for (const line of lines) {
    if (TOTALS.test(line)) {
      close();
      summary.push(line.trim());
      continue;
    }
    const section = SECTION.exec(line);
    if (section?.[1]) {
      close();
      inFailures = true;
      if (!/^(?:Failed Tests|Failed Suites|Unhandled Errors)\b/.test(section[1])) current = { header: section[1], body: configFailed === undefined ? [] : [configFailed] };
      configFailed = undefined;
      continue;
    }
    if (SEPARATOR.test(line) || TIMING.test(line)) {
      close();
      continue;
    }
    const fail = FAIL.exec(line);
    // Before the first section only Vitest's own " FAIL " line opens a failure, not a test's output.
    if (fail?.[1] && (inFailures || line.startsWith(' FAIL '))) {
      close();
      inFailures = true;
      current = { header: `FAIL ${fail[1].replace(/\s+>\s+/g, ' > ')}`, body: [] };
      continue;
    }
    if (!inFailures && CONFIG_FAILED.test(line)) configFailed = line.trim();
    if (current && !BOILERPLATE.test(line)) current.body.push(line);
  }
  close();
  const items = blocks.map(tidyBlock);
  return buildFiltered({ items, noun: 'failures', summary, failures: blocks.map(toFailure) }, lines, raw);
}

/** The message, the diff and the user's frames; of each code excerpt only the line the frame points at. */
function tidyBlock(block: Block): string[] {
  const kept = [block.header];
  let pointedLine: number | undefined;
  for (const line of block.body) {
    if (line.trim() === '' || isLibraryFrame(line) || CARET_LINE.test(line) || BOX_DRAWING_ONLY.test(line)) continue;
    if (isStackFrame(line)) {
      pointedLine = parsePosition(frameLocation(line))?.line;
      kept.push(line.trim());
      continue;
    }
    const code = CODE_LINE.exec(line);
    if (code) {
      if (Number(code[1]) === pointedLine) kept.push(line.trim());
      continue;
    }
    kept.push(line.replace(/(test file|is "[^"]*")\. It (?:doesn't|might) mean.*$/, '$1.'));
  }
  return kept;
}

function toFailure(block: Block): Failure {
  const name = block.header.replace(/^FAIL /, '').replace(/ \[ .+ \]$/, '');
  const message = block.body.find((line) => line.trim() !== '' && !CONFIG_FAILED.test(line))?.trim() ?? '';
  const origin = /originated in "([^"]+)"/.exec(block.body.join('\n'))?.[1];
  const file = block.header.startsWith('FAIL ') ? name.split(' > ')[0] : origin;
  const frames = block.body.filter((line) => isStackFrame(line));
  const position = firstUserPosition(frames.filter((line) => file !== undefined && frameLocation(line).startsWith(`${file}:`))) ?? firstUserPosition(frames);
  const id = block.header.startsWith('FAIL ') ? name : `${file ?? ''}: ${block.header}: ${message}`;
  return { id, ...(file === undefined ? {} : { file }), ...(position ? { line: position.line } : {}), message, ...vitestValues(block.body) };
}
