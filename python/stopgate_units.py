"""A Python module cut into the functions a change can be placed in, for gate's coverage record.

The units are the outermost functions: ``def`` and ``async def`` at module level and in classes (at
any depth of classes, inside ``if``/``try``/``with`` too), named by their qualified name. A unit's
body is its statements after the docstring; the skeleton is the module with every body left out:
imports, module-level code, class bodies, decorators, signatures, defaults and docstrings (a
decorator may read one, as click's do). Hashes are of ``ast.dump``, so comments and layout don't
count, and of the Python version, whose trees differ.

Run as a script: reads a JSON list of paths on stdin, writes {path: units or null}.
"""

import ast
import hashlib
import json
import sys

_VERSION = "{}.{}".format(*sys.version_info[:2])


def units(text):
    tree = ast.parse(text)
    found = []
    _walk(tree, "", found)
    parts = []
    for name, node in found:
        start = 1 if _docstring(node) else 0
        body = node.body[start:]
        node.body = node.body[:start] + [ast.Pass()]
        parts.append({"name": name, "body": _hash(ast.dump(ast.Module(body=body, type_ignores=[]))), "lines": [_first_line(node), node.end_lineno]})
    return {"skeleton": _hash(ast.dump(tree)), "units": parts}


def _walk(node, prefix, found):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((prefix + child.name, child))
        elif isinstance(child, ast.ClassDef):
            _walk(child, prefix + child.name + ".", found)
        elif isinstance(child, (ast.stmt, ast.excepthandler)) or type(child).__name__ == "match_case":
            _walk(child, prefix, found)


def _docstring(node):
    first = node.body[0] if node.body else None
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)


def _first_line(node):
    return min([node.lineno] + [decorator.lineno for decorator in node.decorator_list])


def _hash(text):
    return hashlib.sha1((_VERSION + "\0" + text).encode("utf-8")).hexdigest()


def unit_at(found, line):
    """The unit whose lines hold a function that starts at `line` (nested ones are in their unit's body)."""
    for unit in found:
        if unit["lines"][0] <= line <= unit["lines"][1]:
            return unit["name"]
    return None


if __name__ == "__main__":
    out = {}
    for path in json.load(sys.stdin):
        try:
            with open(path, "rb") as handle:
                data = handle.read()
            cut = units(data.decode("utf-8"))
            out[path] = {"hash": hashlib.sha1(data).hexdigest(), "skeleton": cut["skeleton"], "units": [{"name": u["name"], "body": u["body"]} for u in cut["units"]]}
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
            out[path] = None
    json.dump(out, sys.stdout)
