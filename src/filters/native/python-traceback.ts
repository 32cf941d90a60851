import { NATIVE_FRAME, isPythonToolPath } from './python-frames.js';

export const TRACEBACK_START = /^Traceback \(most recent call last\):$/;
const CARETS = /^\s*[\^~]+\s*$/;
export const CHAIN = /^(?:The above exception was the direct cause of the following exception:|During handling of the above exception, another exception occurred:)$/;
const USER_FRAMES = 3;
const MAX_MESSAGE = 20;

export interface PythonTraceback {
  /** `Traceback …`, the last user-code frames with their code, the exception and its message. */
  lines: string[];
  /** The exception line (`ModuleNotFoundError: No module named 'x'`), when the traceback reached one. */
  message: string | undefined;
  /** The last user-code frames with their code, and the exception with its message: the parts of `lines`. */
  frames: string[];
  exception: string[];
  /** The index after the traceback. */
  end: number;
}

/**
 * A plain Python traceback starting at `lines[start]` (a tool that died: pytest before collecting,
 * a plugin that raised): frames in installed packages, the standard library and console scripts go,
 * the last user frames stay, and so does the exception with every line of its message.
 */
export function readPythonTraceback(lines: string[], start: number): PythonTraceback {
  const frames: string[][] = [];
  let index = start + 1;
  while (index < lines.length) {
    const frame = NATIVE_FRAME.exec(lines[index] ?? '');
    if (frame === null) break;
    const body: string[] = [lines[index] ?? ''];
    index++;
    // The frame's code and caret lines are indented deeper than its `File` line.
    while (index < lines.length && /^\s{4,}\S/.test(lines[index] ?? '') && !NATIVE_FRAME.test(lines[index] ?? '')) {
      if (!CARETS.test(lines[index] ?? '')) body.push(lines[index] ?? '');
      index++;
    }
    const path = frame[1] ?? '';
    if (!isPythonToolPath(path)) frames.push(body);
  }
  const exception: string[] = [];
  while (index < lines.length && exception.length < MAX_MESSAGE) {
    const line = lines[index] ?? '';
    if (line.trim() === '' || TRACEBACK_START.test(line) || CHAIN.test(line)) break;
    exception.push(line);
    index++;
  }
  const kept = frames.slice(-USER_FRAMES).flat();
  return { lines: [lines[start] ?? '', ...kept, ...exception], message: exception[0], frames: kept, exception, end: index };
}
