import { comparePairsInPython } from './python-pairs.js';

// A type checker reads the syntax tree with its type comments (`def f(a):  # type: (int) -> str`)
// and the comments that are directives to it: `# type: ignore`, `# mypy:`, `# pyright:`, `# pyre-`.
// Each directive is kept with the line it is on and the count of code tokens before it, so moving
// one, or changing the code on its line, counts. (`# type: ignore` lines are in the tree as line
// numbers, which any line added above would change: they are taken from the comments instead.)
const SCRIPT = `
import ast, io, json, re, sys, tokenize
DIRECTIVE = re.compile(r"#.*\\b(?:type|mypy|pyright|basedpyright|pyre)\\s*:|#\\s*pyre-")
LAYOUT = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER}
def view(text):
    tree = ast.parse(text, type_comments=True)
    tree.type_ignores = []
    lines = text.splitlines()
    directives, code = [], 0
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            if DIRECTIVE.search(token.string):
                directives.append([code, lines[token.start[0] - 1]])
        elif token.type not in LAYOUT:
            code += 1
    return [ast.dump(tree), directives]
def same(before, after):
    return view(before) == view(after)
`;

/**
 * For each pair of versions of a Python module, whether a type checker (mypy, pyright) reads them
 * alike: the same syntax tree, type comments included, and the same directive comments in the same
 * places. By `python` (the project's interpreter: its grammar). All false when Python can't be run.
 */
export function samePythonToTypeCheckers(python: string, pairs: ReadonlyArray<readonly [string, string]>, cwd: string): Promise<boolean[]> {
  return comparePairsInPython(SCRIPT, python, pairs, cwd);
}
