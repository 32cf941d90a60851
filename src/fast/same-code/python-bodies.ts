import { comparePairsInPython } from './python-pairs.js';

// Whether pyright, checking only the changed module, reports for every other module what it did:
// the two versions differ only inside the bodies of functions (at module level or in classes)
// whose types do not come from their bodies. A body decides a type elsewhere when the function has
// no return annotation (pyright infers it, at call sites too), assigns an attribute (`self.x = …`
// declares one), declares `global`/`nonlocal`, gains or loses a `yield` (a generator's type), or
// stops or starts being a stub (`...`, `pass`, `raise NotImplementedError`: an abstract method
// called through super()). Anything else differing — imports, module code, class bodies, signatures,
// decorators — counts as outside.
const SCRIPT = `
import ast, json, sys
UNITS = (ast.FunctionDef, ast.AsyncFunctionDef)
SCOPES = UNITS + (ast.ClassDef, ast.Lambda)
def units(tree):
    found = []
    def walk(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, UNITS):
                found.append(child)
            elif isinstance(child, ast.ClassDef) or isinstance(child, (ast.stmt, ast.excepthandler)) or type(child).__name__ == "match_case":
                walk(child)
    walk(tree)
    return found
def own_nodes(body):
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, SCOPES):
                stack.append(child)
def targets(node):
    if isinstance(node, (ast.Assign,)):
        return node.targets
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        return [node.target]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    if isinstance(node, ast.Delete):
        return node.targets
    return []
def writes_attribute(body):
    # Nested functions too: an attribute a closure assigns may be one a checker counts.
    for node in (part for statement in body for part in ast.walk(statement)):
        for target in targets(node):
            if any(isinstance(part, ast.Attribute) and isinstance(part.ctx, (ast.Store, ast.Del)) for part in ast.walk(target)):
                return True
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            return True
    return False
def has_yield(body):
    return any(isinstance(node, (ast.Yield, ast.YieldFrom)) for node in own_nodes(body))
def is_stub(body):
    for node in body:
        if isinstance(node, ast.Pass) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            continue
        if isinstance(node, ast.Raise) and node.exc is not None and "NotImplementedError" in ast.dump(node.exc):
            continue
        return False
    return True
def same(before, after):
    a, b = ast.parse(before), ast.parse(after)
    ua, ub = units(a), units(b)
    if len(ua) != len(ub):
        return False
    bodies = []
    for x, y in zip(ua, ub):
        bodies.append((x, y, x.body, y.body))
        x.body, y.body = [ast.Pass()], [ast.Pass()]
    if ast.dump(a) != ast.dump(b):
        return False
    for x, y, bx, by in bodies:
        if ast.dump(ast.Module(body=bx, type_ignores=[])) == ast.dump(ast.Module(body=by, type_ignores=[])):
            continue
        if x.returns is None or writes_attribute(bx) or writes_attribute(by):
            return False
        if has_yield(bx) != has_yield(by) or is_stub(bx) != is_stub(by):
            return False
    return True
`;

/**
 * For each pair of versions of a Python module, whether they differ only inside function bodies
 * whose types a checker takes from their declarations (see above). By the project's `python`.
 */
export function changedInTypedBodiesOnly(python: string, pairs: ReadonlyArray<readonly [string, string]>, cwd: string): Promise<boolean[]> {
  return comparePairsInPython(SCRIPT, python, pairs, cwd);
}

// Files named on pyright's command line replace the config's `include` and `exclude`: a named file
// must be one the full run checks. Only plain paths are followed; a glob, or a config that can't be
// read (Python before 3.11 has no tomllib), answers no.
const COVERS = `
import json, os, sys
def section(root):
    path = os.path.join(root, "pyrightconfig.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    path = os.path.join(root, "pyproject.toml")
    if not os.path.exists(path):
        return {}
    import tomllib
    with open(path, "rb") as handle:
        tool = tomllib.load(handle).get("tool", {})
    return tool.get("basedpyright") or tool.get("pyright") or {}
def under(path, entry):
    entry = entry.strip("/").removeprefix("./")
    return entry in ("", ".") or path == entry or path.startswith(entry + "/")
def covers(root, files):
    config = section(root)
    include, exclude = config.get("include", [""]), config.get("exclude", []) + config.get("ignore", [])
    if any(any(mark in entry for mark in "*?[") for entry in include + exclude):
        return False
    return all(
        any(under(path, entry) for entry in include)
        and not any(under(path, entry) for entry in exclude)
        and not any(part.startswith(".") or part in ("node_modules", "__pycache__") for part in path.split("/")[:-1])
        for path in files
    )
try:
    request = json.load(sys.stdin)
    json.dump([covers(request["root"], request["files"])], sys.stdout)
except Exception:
    json.dump([False], sys.stdout)
`;

/** Whether pyright's full run, from `cwd`, checks each of `files` (relative to `cwd`): then naming them checks the same files' code. */
export async function pyrightChecks(python: string, cwd: string, files: string[]): Promise<boolean> {
  const { runPython } = await import('../run-python.js');
  const stdout = await runPython(python, ['-c', COVERS], JSON.stringify({ root: cwd, files }), cwd, 20_000);
  try {
    return stdout !== undefined && (JSON.parse(stdout) as unknown[])[0] === true;
  } catch {
    return false;
  }
}
