import type { ConfigProblem } from './config-problem.js';

/** JSON.parse, with a failure turned into a problem that names the line and column. */
export function parseJson(file: string, text: string): { value: unknown } | { problem: ConfigProblem } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { value: JSON.parse(body) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(detail)?.[1];
    const where = position === undefined ? '' : ` at ${lineAndColumn(body, Number(position))}`;
    return { problem: { file, path: '', message: `is not valid JSON${where} (${detail}); fix the syntax, the file is read as strict JSON (no comments, no trailing commas)` } };
  }
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

const MAX_DEPTH = 64;

/**
 * What JSON.parse lets pass and gate's own config must not have: a key twice in one object (the last
 * silently wins, so one of two intended settings is dropped), and nesting deep enough to overflow the
 * stack of whatever walks the value next. One pass over text JSON.parse accepted. (Not for other
 * tools' files, such as package.json, whose own readers tolerate both.)
 */
export function checkConfigShape(file: string, text: string): ConfigProblem[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return checkShape(body).map((found) => ({ file, ...found }));
}

function checkShape(text: string): Array<{ path: string; message: string }> {
  const found: Array<{ path: string; message: string }> = [];
  const frames: Array<{ keys: Map<string, number> | undefined; key: string | undefined; index: number; path: string }> = [];
  let expectKey = false;
  const here = () => frames.at(-1);
  const pathOf = (frame: (typeof frames)[number]) => (frame.keys ? (frame.key === undefined ? frame.path : join(frame.path, frame.key)) : `${frame.path}[${frame.index}]`);
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const frame = here();
      if (expectKey && frame?.keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        const first = frame.keys.get(key);
        if (first !== undefined) {
          found.push({ path: join(frame.path, key), message: `is set twice in the same object (${lineAndColumn(text, first)} and ${lineAndColumn(text, i)}); JSON keeps only the last, so remove one` });
        }
        frame.keys.set(key, i);
        frame.key = key;
        expectKey = false;
      }
      i = end;
    } else if (char === '{' || char === '[') {
      const parent = here();
      if (frames.length >= MAX_DEPTH) {
        return [{ path: '', message: `is nested more than ${MAX_DEPTH} levels deep (${lineAndColumn(text, i)}); a gate config needs a few: check the file is the one you meant` }];
      }
      frames.push({ keys: char === '{' ? new Map() : undefined, key: undefined, index: 0, path: parent ? pathOf(parent) : '' });
      expectKey = char === '{';
    } else if (char === '}' || char === ']') {
      frames.pop();
    } else if (char === ',') {
      const frame = here();
      if (frame?.keys) expectKey = true;
      else if (frame) frame.index++;
    }
  }
  return found;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
