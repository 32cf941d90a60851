import { stripVTControlCharacters } from 'node:util';
import { fastHash } from '../hash/fast-hash.js';

const PREFIX = 'the same output ';

/**
 * A failure's identity for a gate whose output names no failure (a custom script, a service
 * check): the output itself, without what changes from run to run of the same failure — colours,
 * durations, times of day, addresses. Equal on the start and now: the same failure; any other
 * difference: a new one. A failure that printed nothing has no identity (undefined).
 */
export function outputId(output: string): string | undefined {
  const normal = stripVTControlCharacters(steadyCapture(output))
    .replace(/\r\n?/g, '\n')
    .replace(/\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?/g, '<time>')
    .replace(/\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b/g, '<time>')
    .replace(/\b\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|min|minutes?)\b/g, '<duration>')
    .replace(/\b0x[0-9a-f]{6,}\b/gi, '<address>')
    .replace(/[ \t]+$/gm, '')
    .trim();
  // Nothing said is nothing to recognise: such a failure is always new.
  return normal === '' ? undefined : `${PREFIX}(${fastHash(normal)})`;
}

/**
 * A capture that left out its middle (src/runner/bounded-capture.ts) keeps the output's first bytes
 * exactly, but a tail of whole chunks as the pipe's reads fell, and counts the rest: the same output
 * twice gives other counts and tails. Only the head and the tail's last 64 K characters (well within
 * what any capture keeps) are the output's own.
 */
function steadyCapture(output: string): string {
  const cut = /\n\[gate: \d+ bytes of output omitted here\]\n/.exec(output);
  if (cut === null) return output;
  return `${output.slice(0, cut.index)}\n[…]\n${output.slice(cut.index + cut[0].length).slice(-65_536)}`;
}

export function isOutputId(id: string): boolean {
  return id.startsWith(PREFIX);
}
