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
  /** Why static reading can't tell what this file loads in its own process (a computed import, exec …). */
  opaque: string | undefined;
  /** It starts another process (subprocess, os.system …), which loads the project's code only if it runs Python. */
  spawns?: boolean;
  /** What in it names Python as a program a process may run (`sys.executable`, a "python" or "pytest" literal …). */
  python?: PythonEvidence;
  /** The first word of each of its string literals (a console script's name, say), for the project's scripts. */
  commands?: string[];
  /** Words of its string literals that mention tests (`test_cli`, `tests/test_cli.py`): the test files it may name. */
  testWords?: string[];
  /** Console scripts it declares (`"name = module:function"` literals, as setup.py writes them). */
  scripts?: string[];
  /** File names with an extension other than .py its string literals name (`users.json`, `templates/page.html`): the data it may read. */
  dataNames?: string[];
}

export interface PythonEvidence {
  /** The text that names Python, for the reason shown. */
  what: string;
  /** It runs a test runner (pytest, unittest), which can load any test file. */
  runsTests: boolean;
}

const FROM = /\bfrom(?:\s+|(?=\.))(\.*)\s*([A-Za-z_][\w.]*)?\s+import\b\s*(\([^)]*\)|[^:;\n]*)/g;
const IMPORT = /\bimport\s+([A-Za-z_][\w.]*(?:\s+as\s+\w+)?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s+as\s+\w+)?)*)/g;
const IMPORT_CALL = /\b(?:__import__|import_module|importorskip)\s*\(\s*"(\d+)"/g;
const PLUGINS = /\bpytest_plugins\s*=\s*([^\n]*)/g;
const PLACEHOLDER = /"(\d+)"/g;
const MODULE_NAME = /^(\.*)([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$/;
// A string like "pkg.mod.name" (mock.patch, monkeypatch.setattr targets) imports pkg.mod.
const DOTTED = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/;

// What makes a file load code in its own process that its import statements don't name.
// Over-eager on purpose: a test that reaches such a file always runs.
const OPAQUE: Array<[RegExp, string]> = [
  [/\b(?:__import__|import_module|importorskip)\s*\((?!\s*"\d+"\s*[,)])/, 'imports a module by a computed name'],
  [/\bpytest_plugins\s*=\s*(?![\s"[(])/, 'names its pytest plugins by a computed value'],
  [/\b(?:spec_from_file_location|spec_from_loader|SourceFileLoader|exec_module|load_module|run_module|run_path|execfile)\b/, 'loads code from a path'],
  [/(?<![\w.])exec\s*\(/, 'runs code from a string'],
  [/\b(?:pkgutil|entry_points|iter_entry_points)\b/, 'discovers modules at run time'],
];
// Another process loads the project's code only if it is Python: see select-python-tests.ts.
const SPAWNS = /\b(?:subprocess|pexpect|create_subprocess_exec|create_subprocess_shell)\b|\bos\.(?:system|popen|exec\w*|spawn\w*|posix_spawn\w*)\b/;
const EXECUTABLE = /\bsys\.(?:executable|_base_executable)\b/;
const PYTESTER = /\b(?:runpytest_subprocess|spawn_pytest|runpython|runpython_c)\b/;
// A literal with a Python interpreter, a test runner or a script, path stripped, where a command
// starts: first, or after a shell's `&&`, `;`, `|`, `$(` or `env VAR=…` ("cd docs && python -m x").
const PROGRAM = /(?:^\s*|(?:[;&|]|\$\()\s*|\benv\s+(?:\w+=\S*\s+)*)(?:\S*[/\\])?((?:python|pypy)[\d.]*(?:\.exe)?|pytest|py\.test|unittest|nose2?|[\w.-]+\.pyw?)(?=\s|$|[;&|)])/;
const RUNNER = /^(?:pytest|py\.test|unittest|nose2?)$/;
const FIRST_WORD = /^\s*(?:\S*[/\\])?([\w.-]+)(?=\s|$)/;
// A file name with an extension, not a Python module's: what a test or module may open by path.
const DATA_NAME = /^[\w-][\w.-]*\.(?!pyw?$)[A-Za-z0-9]+$/;
const ENTRY_POINT = /^\s*([\w.-]+)\s*=\s*[A-Za-z_][\w.]*\s*:\s*[A-Za-z_][\w.]*\s*$/;

/** The imports in Python source, read statically: statements, import calls with a literal name, dotted strings. */
export function parsePythonImports(text: string): PythonSource {
  const { code, strings, formatted } = scanPython(text);
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
  return { imports, opaque, ...readPrograms(code, strings, formatted) };
}

// What it says about the programs a process may run. Of an f-string, only `sys.executable` in a
// replacement field counts as naming Python: `f"python -m {name}"` is how a CLI shows its own usage.
function readPrograms(code: string, literals: string[], formatted: string[]): Omit<PythonSource, 'imports' | 'opaque'> {
  const found: Omit<PythonSource, 'imports' | 'opaque'> = {};
  if (SPAWNS.test(code)) found.spawns = true;
  const pytester = PYTESTER.exec(code)?.[0];
  const executable = EXECUTABLE.exec(code)?.[0] ?? formatted.map((text) => EXECUTABLE.exec(text)?.[0]).find(Boolean);
  const commands = new Set<string>();
  const testWords = new Set<string>();
  const scripts: string[] = [];
  const dataNames = new Set<string>();
  let program: string | undefined;
  let runner: string | undefined;
  const all = [...literals, ...formatted];
  for (const [index, literal] of all.entries()) {
    const word = index < literals.length ? PROGRAM.exec(literal)?.[1] : undefined;
    if (word) {
      program ??= word;
      if (RUNNER.test(word)) runner ??= word;
    }
    const first = FIRST_WORD.exec(literal)?.[1];
    if (first) commands.add(first);
    for (const part of literal.split(/[^\w.-]+/)) {
      if (/test/i.test(part)) testWords.add(part);
      if (DATA_NAME.test(part)) dataNames.add(part);
    }
    const script = ENTRY_POINT.exec(literal)?.[1];
    if (script) scripts.push(script);
  }
  const what = pytester ?? runner ?? executable ?? (program && `"${program}"`);
  if (what) found.python = { what, runsTests: Boolean(pytester ?? runner) };
  if (commands.size > 0) found.commands = [...commands];
  if (testWords.size > 0) found.testWords = [...testWords];
  if (scripts.length > 0) found.scripts = scripts;
  if (dataNames.size > 0) found.dataNames = [...dataNames];
  return found;
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
