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
  let drained = 0;
  let truncated = false;
  let idleSince: number | undefined;
  const chunk = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      if (isErrno(error, 'EAGAIN')) {
        // A non-blocking stdin with nothing in it yet: wait a little, not spin; a harness writes its
        // payload at once, so one silent for seconds has none to give.
        idleSince ??= Date.now();
        if (Date.now() - idleSince > IDLE_LIMIT_MS) break;
        Atomics.wait(SLEEPER, 0, 0, 10);
        continue;
      }
      if (isErrno(error, 'EOF') || isErrno(error, 'EBADF') || isErrno(error, 'ENXIO')) break;
      throw error;
    }
    idleSince = undefined;
    if (n === 0) break;
    if (size < limit) {
      const take = Math.min(n, limit - size);
      kept.push(Buffer.from(chunk.subarray(0, take)));
      size += take;
      if (take < n) truncated = true;
    } else {
      truncated = true;
      // Drained so the writer is not left blocked, but not forever: `gate run < /dev/zero` ends.
      drained += n;
      if (drained > DRAIN_LIMIT) break;
    }
  }
  return { text: Buffer.concat(kept).toString('utf8'), truncated };
}

const IDLE_LIMIT_MS = 3000;
const DRAIN_LIMIT = 256 * 1024 * 1024;
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

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
