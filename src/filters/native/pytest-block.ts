import { NATIVE_FRAME, isPythonLibraryPath, parsePythonLocation } from './python-frames.js';

export interface PytestBlock {
  lines: string[];
  /** Every frame location, in order, user code and library alike. */
  locations: { path: string; line: number; library: boolean }[];
  /** The error itself: the exception line, else the first `E` line. */
  message: string | undefined;
  /** Every `E` line, without its `E`. */
  errors: string[];
}

const FRAME_SEPARATOR = /^(?:_ )+_?$/;
const CAPTURED = /^-{3,} (Captured .+?) -{3,}$/;
const LOCALS = /^[A-Za-z_]\w* = /;
const CARETS = /^\s*[\^~]+\s*$/;
const EXCEPTION = /^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Warning|Interrupt|Failed|Failure)\b/;
const MAX_CAPTURED = 10;
const ADDRESS = / at 0x[0-9a-f]+>/g;

/**
 * The lines of one failure block worth reading: the `>` line and caret-free code of user frames,
 * every `E` line, user-code locations and messages, and the start of captured output. Frames in
 * site-packages and the standard library go, with the source context and the frame locals.
 */
export function readPytestBlock(body: string[]): PytestBlock {
  const kept: string[] = [];
  const locations: PytestBlock['locations'] = [];
  const errors: string[] = [];
  let pending: string[] = [];
  let short: { library: boolean } | undefined;
  let captured = -1;
  const settle = (library: boolean) => {
    kept.push(...pending.filter((line) => line.startsWith('E') || (!library && line.startsWith('>'))));
    pending = [];
  };
  for (const raw of body) {
    const line = raw.replace(ADDRESS, ' at 0x…>');
    const section = CAPTURED.exec(line);
    if (section !== null) {
      settle(false);
      kept.push(`--- ${section[1] ?? ''} ---`);
      captured = 0;
      continue;
    }
    if (captured >= 0) {
      captured++;
      if (captured <= MAX_CAPTURED) kept.push(line);
      else if (captured === MAX_CAPTURED + 1) kept.push('  (more captured output in the full log)');
      continue;
    }
    if (line.startsWith('E ') || line === 'E') {
      errors.push(line.replace(/^E\s+/, ''));
      if (short === undefined) pending.push(line);
      else kept.push(line);
      continue;
    }
    if (FRAME_SEPARATOR.test(line)) {
      settle(false);
      short = undefined;
      continue;
    }
    const location = parsePythonLocation(line) ?? nativeLocation(line);
    if (location !== undefined) {
      const library = isPythonLibraryPath(location.path);
      locations.push({ path: location.path, line: location.line, library });
      if (location.short) {
        settle(false);
        short = { library };
      } else settle(library);
      if (!library) kept.push(line);
      continue;
    }
    if (short !== undefined) {
      if (!short.library && line.trim() !== '' && !CARETS.test(line) && line !== '    ???') kept.push(line);
      continue;
    }
    if (line.startsWith('>') || line.startsWith(' ') || line === '') pending.push(line);
    else if (!LOCALS.test(line)) kept.push(line);
  }
  settle(false);
  return { lines: kept, locations, errors, message: errors.find((error) => EXCEPTION.test(error)) ?? errors.find((error) => error.trim() !== '') };
}

function nativeLocation(line: string): { path: string; line: number; short: boolean } | undefined {
  const match = NATIVE_FRAME.exec(line);
  return match === null ? undefined : { path: match[1] ?? '', line: Number(match[2]), short: true };
}
