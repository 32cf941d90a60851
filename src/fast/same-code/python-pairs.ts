import { runPython } from '../run-python.js';

const TIMEOUT_MS = 20_000;

/**
 * Runs `script` (reads a JSON list of [before, after] on stdin, prints a JSON list of booleans)
 * with the project's `python` over `pairs`: one answer per pair, all false when Python can't be run
 * or answers something else.
 */
export async function comparePairsInPython(script: string, python: string, pairs: ReadonlyArray<readonly [string, string]>, cwd: string): Promise<boolean[]> {
  if (pairs.length === 0) return [];
  const stdout = await runPython(python, ['-c', script], JSON.stringify(pairs), cwd, TIMEOUT_MS);
  try {
    const parsed: unknown = stdout === undefined ? undefined : JSON.parse(stdout);
    if (Array.isArray(parsed) && parsed.length === pairs.length) return parsed.map((value) => value === true);
  } catch {
    // not an answer
  }
  return pairs.map(() => false);
}
