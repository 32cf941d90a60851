import { stripVTControlCharacters } from 'node:util';
import { fastHash } from '../fast-hash.js';

const PREFIX = 'the same output ';

/**
 * A failure's identity for a gate whose output names no failure (a custom script, a service
 * check): the output itself, without what changes from run to run of the same failure — colours,
 * durations, times of day, addresses. Equal on the start and now: the same failure; any other
 * difference: a new one. A failure that printed nothing has no identity (undefined).
 */
export function outputId(output: string): string | undefined {
  const normal = stripVTControlCharacters(output)
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

export function isOutputId(id: string): boolean {
  return id.startsWith(PREFIX);
}
