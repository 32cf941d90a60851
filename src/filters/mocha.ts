import { cleanText } from './clean-text.js';
import type { Failure, Filtered } from './filter.js';
import { buildFiltered } from './js/build-filtered.js';
import { mochaValues } from './js/expected-received.js';
import { firstUserPosition, isStackFrame } from './js/stack-frames.js';
import { tidyNodeError } from './js/tidy-node-error.js';

// Mocha's spec reporter: a tree of passing (✔) and numbered failing tests (dropped), "2 passing
// (59ms)" / "8 failing" / "1 pending", then each failure: "  1) suite" with one title line per level
// down to the test's, ending in ":", then its error, Mocha's diff ("+ expected - actual": inverted
// against most tools) and frames. A file that fails to load ends the run: "Exception during run: ...".
const TOTAL = /^\s+(\d+) (passing|failing|pending)\b/;
const FAILURE = /^ {2}(\d+)\) (.*)$/;
const EXCEPTION = /^\s*Exception during run: (.*)$/;
const MOCHA_INDENT = /^ {1,6}/;
const MOCHA_DIFF = /^\s*\+ expected - actual$/;
const TEST_FRAME = /^\s*at (?:async )?Context\.\S+ \(/;

interface Block {
  title: string[];
  body: string[];
}

export function mochaFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const blocks: Block[] = [];
  const summary: string[] = [];
  let failing = false;
  let current: Block | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const total = TOTAL.exec(line);
    if (total && !current) {
      summary.push(`${total[1]} ${total[2]}`);
      failing ||= total[2] === 'failing';
      continue;
    }
    const exception = EXCEPTION.exec(line);
    if (exception) {
      current = { title: ['Exception during run'], body: [exception[1] ?? ''] };
      blocks.push(current);
      continue;
    }
    const failure = failing ? FAILURE.exec(line) : null;
    if (failure) {
      const title = [failure[2] ?? ''];
      while (!title.at(-1)?.endsWith(':') && index + 1 < lines.length && /^ {5,}\S/.test(lines[index + 1] ?? '')) title.push((lines[++index] ?? '').trim());
      title[title.length - 1] = (title.at(-1) ?? '').replace(/:$/, '');
      current = { title, body: [] };
      blocks.push(current);
      continue;
    }
    current?.body.push(line);
  }
  const items = blocks.map((block) => [`${block.title.length > 1 || block.title[0] !== 'Exception during run' ? 'FAIL ' : ''}${block.title.join(' > ')}`, ...tidyBody(block.body)]);
  return buildFiltered({ items, noun: 'failures', summary: summary.length > 0 ? [summary.join(', ')] : [], failures: blocks.map(toFailure) }, lines, raw);
}

/**
 * The error, both diffs and the user's frames. Mocha indents the message's first line and its own
 * diff; the rest of a multi-line message (Node's assertion diff) keeps its own indentation.
 */
function tidyBody(body: readonly string[]): string[] {
  let inMochaDiff = false;
  return tidyNodeError(body).map((line, index) => {
    inMochaDiff ||= MOCHA_DIFF.test(line);
    if (isStackFrame(line)) return `  ${line.trim()}`;
    return `  ${index === 0 || inMochaDiff ? line.replace(MOCHA_INDENT, '') : line}`;
  });
}

function toFailure(block: Block): Failure {
  const kept = tidyNodeError(block.body);
  // Mocha calls a test's function as `Context.<anonymous>`: that frame is the test's own file, where
  // an assertion helper (`expectJSON(…)` in a helper module, graphql-js) throws from another.
  const position = firstUserPosition(kept.filter((line) => TEST_FRAME.test(line))) ?? firstUserPosition(kept);
  const message = kept[0]?.trim() ?? '';
  const name = block.title.join(' > ');
  const found = mochaValues(block.body);
  return { id: position ? `${position.file} > ${name}` : name, ...(position ? { file: position.file, line: position.line } : {}), message, ...found };
}
