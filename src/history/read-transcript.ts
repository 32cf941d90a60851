import { readFileSync } from 'node:fs';

/**
 * A transcript's records: one JSON value a line (`.jsonl`), or one JSON document (`.json`, older
 * Gemini CLI chats). A line that is not JSON (torn by a crash, or still being written) is counted
 * and skipped; a file that can't be read gives nothing.
 */
export function readTranscript(path: string): { lines: unknown[]; torn: number } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { lines: [], torn: 0 };
  }
  if (path.endsWith('.json')) {
    const value = parse(text);
    return value === TORN ? { lines: [], torn: 1 } : { lines: [value], torn: 0 };
  }
  const lines: unknown[] = [];
  let torn = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const value = parse(line);
    if (value === TORN) torn++;
    else lines.push(value);
  }
  return { lines, torn };
}

const TORN = Symbol('torn');

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return TORN;
  }
}
