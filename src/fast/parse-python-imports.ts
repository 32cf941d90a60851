import { scanPython } from './scan-python.js';

export interface PythonImport {
  /** The leading dots of a relative import; 0 for an absolute one. */
  level: number;
  /** The dotted module (empty in `from . import x`). */
  module: string;
  /** After `from … import`: names that may be submodules; `*` for all of them. */
  names: string[];
}

export interface PythonSource {
  imports: PythonImport[];
  /** Why static reading can't tell what this file loads (it imports by a computed name, runs a process …). */
  opaque: string | undefined;
}

const FROM = /\bfrom(?:\s+|(?=\.))(\.*)\s*([A-Za-z_][\w.]*)?\s+import\b\s*(\([^)]*\)|[^:;\n]*)/g;
const IMPORT = /\bimport\s+([A-Za-z_][\w.]*(?:\s+as\s+\w+)?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s+as\s+\w+)?)*)/g;
const IMPORT_CALL = /\b(?:__import__|import_module|importorskip)\s*\(\s*"(\d+)"/g;
const PLUGINS = /\bpytest_plugins\s*=\s*([^\n]*)/g;
const PLACEHOLDER = /"(\d+)"/g;
const MODULE_NAME = /^(\.*)([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$/;
// A string like "pkg.mod.name" (mock.patch, monkeypatch.setattr targets) imports pkg.mod.
const DOTTED = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/;

// What makes a file load code that its import statements don't name. Over-eager on purpose: a
// test that reaches such a file always runs.
const OPAQUE: Array<[RegExp, string]> = [
  [/\b(?:__import__|import_module|importorskip)\s*\((?!\s*"\d+"\s*[,)])/, 'imports a module by a computed name'],
  [/\bpytest_plugins\s*=\s*(?![\s"[(])/, 'names its pytest plugins by a computed value'],
  [/\b(?:spec_from_file_location|spec_from_loader|SourceFileLoader|exec_module|load_module|run_module|run_path|execfile)\b/, 'loads code from a path'],
  [/(?<![\w.])exec\s*\(/, 'runs code from a string'],
  [/\b(?:subprocess|pexpect|create_subprocess_exec|create_subprocess_shell)\b|\bos\.(?:system|popen|exec\w*|spawn\w*|posix_spawn\w*)\b|\bsys\.executable\b/, 'runs another process'],
  [/\b(?:pkgutil|entry_points|iter_entry_points)\b/, 'discovers modules at run time'],
];

/** The imports in Python source, read statically: statements, import calls with a literal name, dotted strings. */
export function parsePythonImports(text: string): PythonSource {
  const { code, strings } = scanPython(text);
  const imports: PythonImport[] = [];
  const rest = code.replace(FROM, (_match, dots: string, module: string | undefined, names: string) => {
    imports.push({ level: dots.length, module: module ?? '', names: importedNames(names) });
    return ' ';
  });
  for (const match of rest.matchAll(IMPORT)) {
    for (const part of (match[1] ?? '').split(',')) {
      const module = part.trim().split(/\s+/)[0];
      if (module) imports.push({ level: 0, module, names: [] });
    }
  }
  const named = (index: string | undefined) => strings[Number(index)] ?? '';
  for (const match of code.matchAll(IMPORT_CALL)) pushName(imports, named(match[1]));
  for (const match of code.matchAll(PLUGINS)) {
    for (const literal of (match[1] ?? '').matchAll(PLACEHOLDER)) pushName(imports, named(literal[1]));
  }
  for (const value of strings) if (DOTTED.test(value)) imports.push({ level: 0, module: value, names: [] });
  const opaque = OPAQUE.find(([pattern]) => pattern.test(code))?.[1];
  return { imports, opaque };
}

function importedNames(list: string): string[] {
  return list
    .replace(/[()]/g, ' ')
    .split(',')
    .map((part) => part.trim().split(/\s+/)[0] ?? '')
    .filter((name) => name === '*' || /^[A-Za-z_]\w*$/.test(name));
}

function pushName(imports: PythonImport[], value: string): void {
  const match = MODULE_NAME.exec(value);
  if (match) imports.push({ level: match[1]?.length ?? 0, module: match[2] ?? '', names: [] });
}
