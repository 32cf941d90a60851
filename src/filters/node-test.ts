import { cleanText } from './clean-text.js';
import type { Filtered } from './filter.js';
import { buildFiltered } from './js/build-filtered.js';
import { parseNodeSpec } from './js/node-test-spec.js';
import { parseNodeTap } from './js/node-test-tap.js';

/** `node --test`, with the spec reporter or the TAP one (told apart by TAP's first line). */
export function nodeTestFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const tap = lines.some((line) => /^TAP version \d+$/.test(line));
  return buildFiltered(tap ? parseNodeTap(lines) : parseNodeSpec(lines), lines, raw);
}
