import { createHash } from 'node:crypto';
import { runPython } from '../run-python.js';

const TIMEOUT_MS = 20_000;

// Each pair read from stdin and answered by the script's `same(before, after)`; one that raises is no.
const LOOP = `
import json as _json, sys as _sys
_out = []
for _before, _after in _json.load(_sys.stdin):
    try:
        _out.append(same(_before, _after) is True)
    except Exception:
        _out.append(False)
_json.dump(_out, _sys.stdout)
`;

/**
 * Runs `script`, which defines `same(before, after)`, with the project's `python` over `pairs`: one
 * answer per pair, all false when Python can't be run or answers something else.
 */
export function comparePairsInPython(script: string, python: string, pairs: ReadonlyArray<readonly [string, string]>, cwd: string): Promise<boolean[]> {
  if (pairs.length === 0) return Promise.resolve([]);
  // A stop asks the same of each of its type checkers (mypy and pyright on the same files): once.
  const key = createHash('sha1').update(JSON.stringify([script, python, cwd, pairs])).digest('hex');
  const asked = answered.get(key) ?? compare(script, python, pairs, cwd);
  answered.set(key, asked);
  return asked;
}

const answered = new Map<string, Promise<boolean[]>>();

async function compare(script: string, python: string, pairs: ReadonlyArray<readonly [string, string]>, cwd: string): Promise<boolean[]> {
  const stdout = await runPython(python, ['-c', `${script}\n${LOOP}`], JSON.stringify(pairs), cwd, TIMEOUT_MS);
  try {
    const parsed: unknown = stdout === undefined ? undefined : JSON.parse(stdout);
    if (Array.isArray(parsed) && parsed.length === pairs.length) return parsed.map((value) => value === true);
  } catch {
    // not an answer
  }
  return pairs.map(() => false);
}
