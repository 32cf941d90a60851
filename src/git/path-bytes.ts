import { isUtf8 } from 'node:buffer';

/**
 * File names are bytes; gate keeps them in strings. A name that is not UTF-8 keeps each byte that
 * does not decode as a lone surrogate U+DC80 + byte (Python's "surrogateescape"), so the string
 * maps back to the exact bytes: a mangled name would be "changed" yet never checked.
 */
export function decodeBytes(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let text = '';
  let at = 0;
  while (at < bytes.length) {
    const length = sequenceLength(bytes, at);
    if (length === 0) {
      text += String.fromCharCode(0xdc00 + (bytes[at] ?? 0));
      at++;
    } else {
      text += bytes.toString('utf8', at, at + length);
      at += length;
    }
  }
  return text;
}

const ESCAPED = /(?<![\ud800-\udbff])[\udc80-\udcff]/;

/** The name holds bytes that are not UTF-8 (see decodeBytes). */
export function hasRawBytes(path: string): boolean {
  return ESCAPED.test(path);
}

/** The exact bytes of a name from decodeBytes. */
export function encodeBytes(path: string): Buffer {
  if (!hasRawBytes(path)) return Buffer.from(path);
  const parts: Buffer[] = [];
  let run = '';
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    const lone = code >= 0xdc80 && code <= 0xdcff && !(i > 0 && isHigh(path.charCodeAt(i - 1)));
    if (lone) {
      parts.push(Buffer.from(run), Buffer.from([code - 0xdc00]));
      run = '';
    } else {
      run += path.charAt(i);
    }
  }
  parts.push(Buffer.from(run));
  return Buffer.concat(parts);
}

/** What to hand node:fs for a name from decodeBytes: the string itself unless it holds raw bytes. */
export function fsPath(path: string): string | Buffer {
  return hasRawBytes(path) ? encodeBytes(path) : path;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Length of the valid UTF-8 sequence at `at`, 0 when the byte there starts none. */
function sequenceLength(bytes: Buffer, at: number): number {
  const first = bytes[at] ?? 0;
  const length = first < 0x80 ? 1 : first >= 0xc2 && first <= 0xdf ? 2 : first >= 0xe0 && first <= 0xef ? 3 : first >= 0xf0 && first <= 0xf4 ? 4 : 0;
  if (length <= 1 || at + length > bytes.length) return length === 1 ? 1 : 0;
  return isUtf8(bytes.subarray(at, at + length)) ? length : 0;
}
