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
