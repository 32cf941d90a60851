/** A traceback path inside an installed package or the Python standard library, not the user's code. */
export function isPythonLibraryPath(path: string): boolean {
  return /(?:site|dist)-packages[\\/]|[\\/]lib[\\/]python\d[\d.]*[\\/]|[\\/]Lib[\\/]|^<frozen |^<string>$/.test(path);
}

// A console script (`/usr/bin/pytest`, `.venv/bin/mypy`): the tool's entry point, not the user's code.
const ENTRY_SCRIPT = /[\\/](?:s?bin|Scripts)[\\/][^\\/]+$/;

/** A traceback frame that is not the user's code: a library's, the standard library's or a console script's. */
export function isPythonToolPath(path: string): boolean {
  return isPythonLibraryPath(path) || ENTRY_SCRIPT.test(path);
}

// Location lines of pytest's long and short traceback styles: "tests/a.py:13: AssertionError",
// "tests/a.py:13: " (a frame in the middle), "app.py:5: in load_user" (short style).
const LOCATION = /^(\S(?:.*?\S)?):(\d+): ?(?:(in) (\S+)|([A-Za-z_][\w.]*))?$/;

export interface PythonLocation {
  path: string;
  line: number;
  /** Short-style frames name their function and come before their code; long-style ones come after it. */
  short: boolean;
}

export function parsePythonLocation(line: string): PythonLocation | undefined {
  if (line.startsWith('E ') || line.startsWith('>') || line.startsWith(' ')) return undefined;
  const match = LOCATION.exec(line);
  if (match === null) return undefined;
  return { path: match[1] ?? '', line: Number(match[2]), short: match[3] === 'in' };
}

/** `  File "/usr/lib/python3.11/json/decoder.py", line 337, in decode` (--tb=native and plain Python). */
export const NATIVE_FRAME = /^\s*File "(.+)", line (\d+)(?:, in .*)?$/;
