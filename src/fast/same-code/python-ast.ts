import { comparePairsInPython } from './python-pairs.js';

// Docstrings are values in the tree (a test may read them, doctest runs them); comments and layout
// are not; line numbers are left out of the dump. A version that does not parse is not the same.
const SCRIPT = `
import ast, json, sys
def dump(text):
    return ast.dump(ast.parse(text))
def same(before, after):
    return dump(before) == dump(after)
`;

/**
 * For each pair of versions of a Python module, whether the two parse to the same syntax tree, by
 * `python` (the project's interpreter: its grammar). All false when Python can't be run.
 */
export function samePythonAst(python: string, pairs: ReadonlyArray<readonly [string, string]>, cwd: string): Promise<boolean[]> {
  return comparePairsInPython(SCRIPT, python, pairs, cwd);
}
