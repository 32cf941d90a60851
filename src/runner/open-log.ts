import { closeSync, openSync, writeSync } from 'node:fs';
import { removeFile } from '../state/state-files.js';

export interface GateLog {
  write(bytes: Uint8Array | string): void;
  end(): void;
}

/**
 * A gate's log file, recreated owner-only (tools print paths, tokens and whatever else they like)
 * and written synchronously: an fs.WriteStream costs a stop more to load than the writes take. A
 * log that can't be written is given up on without a word; the run's output is kept in memory anyway.
 */
export function openLog(path: string): GateLog {
  removeFile(path);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'w', 0o600);
  } catch {
    fd = undefined;
  }
  return {
    write(bytes) {
      if (fd === undefined) return;
      const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
      try {
        for (let done = 0; done < buffer.length; ) done += writeSync(fd, buffer, done);
      } catch {
        close(fd);
        fd = undefined;
      }
    },
    end() {
      if (fd !== undefined) close(fd);
      fd = undefined;
    },
  };
}

function close(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Nothing more to write to it either way.
  }
}
