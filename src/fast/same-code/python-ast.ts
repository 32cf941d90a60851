import { runPython } from '../run-python.js';

// Docstrings are values in the tree (a test may read them, doctest runs them); comments and layout
// are not; line numbers are left out of the dump. A version that does not parse is not the same.
const SCRIPT = `
import ast, json, sys
def dump(text):
    return ast.dump(ast.parse(text))
out = []
for before, after in json.load(sys.stdin):
    try:
        out.append(dump(before) == dump(after))
    except Exception:
        out.append(False)
json.dump(out, sys.stdout)
`;

const TIMEOUT_MS = 20_000;

/**
 * For each pair of versions of a Python module, whether the two parse to the same syntax tree, by
 * `python` (the project's interpreter: its grammar). All false when Python can't be run.
 */
export function samePythonAst(python: string, pairs: ReadonlyArray<readonly [string, string]>, cwd: string): Promise<boolean[]> {
  const none = pairs.map(() => false);
  if (pairs.length === 0) return Promise.resolve([]);
  return runPython(python, ['-c', SCRIPT], JSON.stringify(pairs), cwd, TIMEOUT_MS).then((stdout) => (stdout === undefined ? none : answers(stdout, pairs.length)));
}

function answers(stdout: string, count: number): boolean[] {
  try {
    const parsed: unknown = JSON.parse(stdout);
    if (Array.isArray(parsed) && parsed.length === count) return parsed.map((value) => value === true);
  } catch {
    // not an answer
  }
  return Array.from({ length: count }, () => false);
}
