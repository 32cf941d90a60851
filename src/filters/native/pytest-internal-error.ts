import { CHAIN, readPythonTraceback, TRACEBACK_START } from './python-traceback.js';

const PREFIX = /^INTERNALERROR> ?/;

export function isInternalError(line: string): boolean {
  return PREFIX.test(line);
}

/**
 * pytest's INTERNALERROR report (an exception raised in a hook: conftest.py's or a plugin's), from
 * `lines[start]`: every line prefixed, tens of pytest and pluggy frames and the exception last. The
 * report leads with the exception and keeps only the user's frames; a chained cause follows.
 */
export function readInternalError(lines: string[], start: number): { lines: string[]; end: number; read: boolean } {
  let end = start;
  while (end < lines.length && isInternalError(lines[end] ?? '')) end++;
  const body = lines.slice(start, end).map((line) => line.replace(PREFIX, ''));
  const tracebacks: Array<{ chain: string | undefined; frames: string[]; exception: string[] }> = [];
  let chain: string | undefined;
  const other: string[] = [];
  for (let index = 0; index < body.length; index++) {
    const line = body[index] ?? '';
    if (CHAIN.test(line)) chain = line;
    else if (TRACEBACK_START.test(line)) {
      const traceback = readPythonTraceback(body, index);
      tracebacks.push({ chain, frames: traceback.frames, exception: traceback.exception });
      chain = undefined;
      index = traceback.end - 1;
    } else if (line.trim() !== '') other.push(line);
  }
  const last = tracebacks.at(-1);
  // Not a Python traceback (an older pytest's own format): the lines as they came, prefix and all.
  if (last === undefined || last.exception.length === 0) return { lines: lines.slice(start, end), end, read: false };
  const [exception = '', ...message] = last.exception;
  // Most recent first, as the lead: each earlier exception caused the next one, or was being handled when it was raised.
  const causes = tracebacks
    .slice(0, -1)
    .map((cause, index) => {
      const how = tracebacks[index + 1]?.chain?.includes('direct cause') ? 'caused by:' : 'raised while handling:';
      return ['', how, ...cause.exception, ...cause.frames];
    })
    .reverse()
    .flat();
  return { lines: [`INTERNALERROR ${exception}`, ...message, ...last.frames, ...other, ...causes], end, read: true };
}
