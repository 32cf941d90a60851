/** A V8 frame ("at fn (file:1:2)"), or Vitest's ("❯ fn file:1:2"). */
const FRAME = /^\s*(?:at|❯)\s/;
const LIBRARY_LOCATION = /node_modules[\\/]|^node:|^internal[\\/]|^<anonymous>$|^index \d+$|^native$/;
const POSITION = /^(?:file:\/\/)?(.+?):(\d+)(?::(\d+))?$/;

export function isStackFrame(line: string): boolean {
  return FRAME.test(line);
}

/** Where a frame points: inside its last parentheses, else its last word ("❯ fn src/a.ts:1:2"). */
export function frameLocation(frame: string): string {
  const body = frame.trim().replace(/\s*\{$/, '');
  const inParentheses = /\(([^()]*)\)$/.exec(body);
  if (inParentheses) return inParentheses[1] ?? '';
  return body.split(/\s+/).at(-1) ?? '';
}

/** A frame inside a dependency or the runtime, which the agent cannot and need not fix. */
export function isLibraryFrame(line: string): boolean {
  return isStackFrame(line) && LIBRARY_LOCATION.test(frameLocation(line));
}

export interface Position {
  file: string;
  line: number;
}

/** "src/a.ts:3:5", "(file:///repo/a.js:3:5)" → file and line. */
export function parsePosition(location: string): Position | undefined {
  const match = POSITION.exec(location.trim());
  if (!match?.[1] || !match[2]) return undefined;
  return { file: match[1], line: Number(match[2]) };
}

/** The first frame in the user's own code. */
export function firstUserPosition(lines: readonly string[]): Position | undefined {
  for (const line of lines) {
    if (!isStackFrame(line) || isLibraryFrame(line)) continue;
    const position = parsePosition(frameLocation(line));
    if (position) return position;
  }
  return undefined;
}
