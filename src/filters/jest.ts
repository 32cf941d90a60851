import { cleanText } from './clean-text.js';
import type { Failure, Filtered } from './filter.js';
import { buildFiltered } from './js/build-filtered.js';
import { jestValues } from './js/expected-received.js';
import { firstUserPosition, frameLocation, isLibraryFrame, isStackFrame } from './js/stack-frames.js';
import { dedent } from './js/tidy-lines.js';

// Jest's default reporter: "FAIL file" / "PASS file", (for one file) a tree of ✓/✕ tests, then
// "  ● describe › test" blocks indented by four, then the totals.
const FILE = /^\s*(FAIL|PASS)\s+(\S.*)$/;
const FAILURE = /^ {2}● (.+)$/;
const TOTALS = /^(?:Test Suites|Tests|Snapshots):\s/;
const AFTER_TOTALS = /^(?:Time:|Ran all test suites)/;
const CODE_LINE = /^\s*(>)?\s*\d+ \|/;
const CARET_LINE = /^\s*\|[\s^]*$/;

interface Block {
  file: string;
  name: string;
  body: string[];
}

export function jestFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const blocks: Block[] = [];
  const summary: string[] = [];
  let file = '';
  let current: Block | undefined;
  const close = () => {
    if (current) blocks.push(current);
    current = undefined;
  };
  for (const line of lines) {
    const header = FILE.exec(line);
    if (header?.[2]) {
      close();
      file = header[2];
      continue;
    }
    if (TOTALS.test(line)) {
      close();
      if (!/^Snapshots:\s+\d+ total$/.test(line)) summary.push(line.replace(/\s{2,}/g, ' '));
      continue;
    }
    if (AFTER_TOTALS.test(line)) {
      close();
      continue;
    }
    const failure = FAILURE.exec(line);
    if (failure?.[1]) {
      close();
      current = { file, name: failure[1], body: [] };
      continue;
    }
    // Lines outside a "●" block are the per-test tree, console output and progress.
    if (current && (line.startsWith('    ') || line.trim() === '')) current.body.push(line);
    else close();
  }
  close();
  return buildFiltered({ items: blocks.map(tidyBlock), noun: 'failures', summary, failures: blocks.map(toFailure) }, lines, raw);
}

/** The message and diff as Jest lays them out, the user's frames, and of the code excerpt only the ">" line. */
function tidyBlock(block: Block): string[] {
  const body = block.body.filter((line) => {
    if (line.trim() === '' || isLibraryFrame(line) || CARET_LINE.test(line)) return false;
    const code = CODE_LINE.exec(line);
    return !code || code[1] === '>';
  });
  return [`● ${block.file} › ${block.name}`, ...dedent(body).map((line) => `  ${line}`)];
}

function toFailure(block: Block): Failure {
  const frames = block.body.filter((line) => isStackFrame(line));
  const position = firstUserPosition(frames.filter((line) => frameLocation(line).startsWith(`${block.file}:`))) ?? firstUserPosition(frames);
  const id = block.name === 'Test suite failed to run' ? block.file : `${block.file} > ${block.name.split(' › ').join(' > ')}`;
  const message = block.body.find((line) => line.trim() !== '')?.trim() ?? '';
  return { id, file: block.file, ...(position ? { line: position.line } : {}), message, ...jestValues(block.body) };
}
