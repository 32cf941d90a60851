import { fstatSync, readSync } from 'node:fs';

export const PAYLOAD_LIMIT = 1024 * 1024;

/**
 * Reads fd 0 to EOF, keeping at most `limit` bytes and draining the rest. fd 0, not /dev/stdin:
 * under Claude Code stdin is a Unix socket, and opening /dev/stdin fails with ENXIO.
 */
export function readPayload(limit = PAYLOAD_LIMIT): { text: string; truncated: boolean } {
  // A person typing `gate run` in a terminal has no payload to give; don't wait for one.
  if (isTerminal()) return { text: '', truncated: false };
  const kept: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const chunk = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      if (isErrno(error, 'EAGAIN')) continue;
      if (isErrno(error, 'EOF') || isErrno(error, 'EBADF') || isErrno(error, 'ENXIO')) break;
      throw error;
    }
    if (n === 0) break;
    if (size < limit) {
      const take = Math.min(n, limit - size);
      kept.push(Buffer.from(chunk.subarray(0, take)));
      size += take;
      if (take < n) truncated = true;
    } else {
      truncated = true;
    }
  }
  return { text: Buffer.concat(kept).toString('utf8'), truncated };
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}

// fstat instead of node:tty's isatty: loading tty (and readline behind it) costs milliseconds.
// Character devices other than the memory devices (major 1: /dev/null, /dev/zero) are terminals.
function isTerminal(): boolean {
  try {
    const stats = fstatSync(0);
    return stats.isCharacterDevice() && (stats.rdev >> 8) !== 1;
  } catch {
    return false;
  }
}
