import { isLibraryFrame, isStackFrame } from './stack-frames.js';

// How Node prints an uncaught error: "node:internal/x:283" and the library's source line above it,
// a caret under the column, then the error, its frames, and its own properties in braces opened on
// the last frame's line ("at x (y:1:2) {" … "}").
const LIBRARY_SOURCE = /^\s*(?:node:)?internal\/\S+:\d+$/;
const CARET = /^\s*\^+\s*$/;
const VERSION = /^\s*Node\.js v\d+\.\d+\.\d+$/;

/** An error as Node prints it, without the runtime's frames and source, carets and version line. */
export function tidyNodeError(lines: readonly string[]): string[] {
  const kept: string[] = [];
  let skipSource = false;
  let inProperties = false;
  for (const line of lines) {
    if (LIBRARY_SOURCE.test(line)) {
      skipSource = true;
      continue;
    }
    if (skipSource && line.trim() !== '' && !CARET.test(line)) {
      skipSource = false;
      continue;
    }
    if (isStackFrame(line) && line.endsWith(' {')) inProperties = true;
    if (inProperties && line.trim() === '}') {
      inProperties = false;
      continue;
    }
    if (line.trim() === '' || CARET.test(line) || VERSION.test(line) || isLibraryFrame(line)) continue;
    if (inProperties && /^\s*generatedMessage: \w+,?$/.test(line)) continue;
    const text = line.replace(/file:\/\//g, '');
    kept.push(isStackFrame(text) ? text.replace(/\s*\{$/, '') : text);
  }
  return kept;
}
