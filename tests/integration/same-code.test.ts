// Whether a change leaves the code the tests run the same (issue 39 point 1): TypeScript's own
// transpiler (the version in node_modules) for JavaScript and TypeScript, Python's ast for Python.
import { describe, expect, it } from 'vitest';
import { loadTypescript, sameJsRuntime } from '../../src/fast/same-code/js-runtime.js';
import { changedInTypedBodiesOnly } from '../../src/fast/same-code/python-bodies.js';
import { samePythonAst } from '../../src/fast/same-code/python-ast.js';
import { samePythonToTypeCheckers } from '../../src/fast/same-code/python-type-view.js';
import { sameDeclarations } from '../../src/fast/same-code/ts-declarations.js';
import { sameToTsc } from '../../src/fast/same-code/ts-type-view.js';

const ts = loadTypescript(process.cwd());
if (!ts) throw new Error('typescript is a devDependency: it must load');

const MODULE = `import type { Options } from './options';
import { clamp } from './clamp';

/** Sums two numbers. */
export function sum(a: number, b: number, options?: Options): number {
  return clamp(a + b, options);
}

export const label = \`total: \${sum(1, 2)}\`;
`;

const same = (before: string, after: string, file = 'src/sum.ts') => sameJsRuntime(ts, file, before, after);

describe('JavaScript and TypeScript: the same emitted code', () => {
  it.each([
    ['a comment', MODULE.replace('/** Sums two numbers. */', '/**\n * Sums two numbers, exactly.\n * @param a the first\n */')],
    ['a line comment inside a body', MODULE.replace('  return clamp', '  // clamped to the options\n  return clamp')],
    ['formatting', MODULE.replace('return clamp(a + b, options);', 'return clamp(\n    a + b,\n    options,\n  );').replace('(a: number, b: number, options?: Options)', '(\n  a: number,\n  b: number,\n  options?: Options,\n)')],
    ['quotes around a module name', MODULE.replace("'./clamp'", '"./clamp"')],
    ['a type annotation', MODULE.replace('options?: Options): number', 'options?: Options): number | never')],
    ['an interface added', `${MODULE}\nexport interface Total {\n  value: number;\n}\n`],
    ['an import type added', `import type { Extra } from './extra';\n${MODULE}`],
  ])('%s is the same code', (_label, after) => {
    expect(same(MODULE, after)).toBe(true);
  });

  it.each([
    ['an operator', MODULE.replace('a + b', 'a - b')],
    ['a string in a template literal', MODULE.replace('total: ', 'total:  ')],
    ['let for const', MODULE.replace('export const label', 'export let label')],
    ['a value import added', `import { extra } from './extra';\n${MODULE}`],
    ['an import only types use, now `import type` (its module no longer loads)', MODULE.replace("import { clamp } from './clamp';", "import { clamp } from './clamp';\nimport { Mode } from './mode';\nlet mode: Mode;").replace("import { Mode } from './mode';", "import type { Mode } from './mode';")],
    ['a number written otherwise', MODULE.replace('sum(1, 2)', 'sum(1.0, 2)')],
    ['a syntax error', MODULE.replace('return clamp(', 'return clamp((')],
    ['a unary operator', MODULE.replace('a + b', '-a + b')],
  ])('%s is other code', (_label, after) => {
    expect(same(MODULE, after)).toBe(false);
  });

  it('keeps the spaces JSX keeps, and drops the ones it drops', () => {
    const view = 'export const View = () => (\n  <p>\n    <b>total</b> <i>sum</i>\n  </p>\n);\n';
    expect(same(view, view.replace('<p>\n    <b>', '<p>\n\n      <b>'), 'src/view.tsx')).toBe(true);
    expect(same(view, view.replace('</b> <i>', '</b><i>'), 'src/view.tsx')).toBe(false);
    expect(same(view, view.replace('<b>total</b>', '<b> total</b>'), 'src/view.tsx')).toBe(false);
  });

  it('counts a type that decorator metadata records as code', () => {
    const service = "import { Inject } from './di';\nexport class Service {\n  constructor(@Inject() readonly repo: Repo) {}\n}\nclass Repo {}\nclass Other {}\n";
    expect(same(service, service.replace('readonly repo: Repo', 'readonly repo: Other'))).toBe(false);
  });

  it('reads plain JavaScript too', () => {
    const js = "const { join } = require('node:path');\n// where it lives\nmodule.exports = (dir) => join(dir, 'x');\n";
    expect(same(js, js.replace('// where it lives\n', ''), 'lib/where.cjs')).toBe(true);
    expect(same(js, js.replace("'x'", "'y'"), 'lib/where.cjs')).toBe(false);
  });
});

describe('Python: the same syntax tree', () => {
  const module = 'def total(a, b):\n    """Adds."""\n    return a + b  # plain\n';
  it('is the same without comments, with other layout; other with a docstring, an annotation or code changed', async () => {
    const answers = await samePythonAst(
      'python3',
      [
        [module, module.replace('  # plain', '').replace('def total(a, b):', '# the total\ndef total(\n    a,\n    b,\n):')],
        [module, module.replace('"""Adds."""', '"""Adds two."""')],
        [module, module.replace('def total(a, b)', 'def total(a: int, b)')],
        [module, module.replace('a + b', 'b + a')],
        [module, module.replace('return a + b', 'return (a +')],
      ],
      process.cwd(),
    );
    expect(answers).toEqual([true, false, false, false, false]);
  });

  it('answers "not the same" for every pair when Python cannot run', async () => {
    expect(await samePythonAst('/nonexistent/python3', [[module, module]], process.cwd())).toEqual([false]);
  });
});

describe('a look before TypeScript is loaded', () => {
  it('rules out a change in code with nothing of types near it, and leaves every other change to the transpiler', async () => {
    const { mayRunTheSame } = await import('../../src/fast/same-code/may-run-the-same.js');
    const code = 'export function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price * item.count;\n  return sum;\n}\n';
    expect(mayRunTheSame(code, code.replace('item.price * item.count', 'item.price + item.count'))).toBe(false);
    expect(mayRunTheSame(code, code.replace('let sum = 0;', '// running total\n  let sum = 0;'))).toBe(true);
    expect(mayRunTheSame(code, code.replace('(items)', '(items: Item[])'))).toBe(true);
    expect(mayRunTheSame(MODULE, MODULE.replace('options?: Options): number', 'options?: Options): number | never'))).toBe(true);
    expect(mayRunTheSame(code, code.replace('  return sum;', '  return sum;\n'))).toBe(true);
  });
});

describe('esbuild, where the TypeScript has no transpiler (TypeScript 7)', () => {
  it('prints the same code for comments, layout, quotes and types; other code otherwise; a decorated file is not decided', async () => {
    const { loadEsbuild, sameByEsbuild } = await import('../../src/fast/same-code/esbuild-runtime.js');
    const esbuild = loadEsbuild(process.cwd());
    if (!esbuild) throw new Error('esbuild is a devDependency: it must load');
    const byEsbuild = (before: string, after: string, file = 'src/sum.ts') => sameByEsbuild(esbuild, file, before, after);
    expect(byEsbuild(MODULE, MODULE.replace('/** Sums two numbers. */', '// sums\n').replace("'./clamp'", '"./clamp"').replace('): number {', '): number | never {'))).toBe(true);
    expect(byEsbuild(MODULE, MODULE.replace('a + b', 'a - b'))).toBe(false);
    expect(byEsbuild(MODULE, `import { extra } from './extra';\n${MODULE}`)).toBe(false);
    const service = "import { Inject } from './di';\nexport class Service {\n  constructor(@Inject() readonly repo: Repo) {}\n}\nclass Repo {}\n";
    expect(byEsbuild(service, service.replace('{}\n}', '{} // injected\n}'))).toBe(false);
  });
});

describe('the files that name a changed file as text', () => {
  it('are the ones that read it, not a barrel that re-exports it or a comment that mentions it (radashi, urql)', async () => {
    const { makeRepo } = await import('../helpers/temp-repo.js');
    const { namedAsText } = await import('../../src/fast/same-code/named-as-text.js');
    const repo = makeRepo({
      'src/greet.ts': 'export const greet = (name: string): string => `hello ${name}`;\n',
      'src/mod.ts': "export * from './greet.ts';\nexport { greet as hello } from \"./greet.ts\";\n",
      'src/fetch.ts': "/** Like greet.ts, but for requests. */\nimport './greet.ts';\nexport const fetchIt = (): Promise<unknown> => import('./greet.ts');\n",
      'tests/source.test.ts': "import { readFileSync } from 'node:fs';\nimport { greet } from '../src/greet.ts';\n\nreadFileSync('src/greet.ts', 'utf8');\n",
      'tests/__snapshots__/stack.test.ts.snap': 'exports[`stack`] = `at greet (src/greet.ts:1:40)`;\n',
      'docs/greet.md': 'See src/greet.ts.\n',
    });
    try {
      expect(await namedAsText(repo.dir, repo.dir, ['src/greet.ts'], /\.(?:[cm]?[jt]s|[jt]sx)$/)).toEqual(['tests/source.test.ts', 'tests/stack.test.ts']);
    } finally {
      repo.cleanup();
    }
  });
});

describe('what a type checker reads: tsc', () => {
  const source = `// @ts-ignore: the legacy module has no types
import legacy from './legacy';

/** Sums two numbers. */
export function sum(a: number, b: number): number {
  return legacy(a + b);
}
`;
  const typeSame = (before: string, after: string, file = 'src/sum.ts') => sameToTsc(ts, file, before, after);
  it('is the same with other comments, JSDoc and layout in TypeScript', () => {
    expect(typeSame(source, source.replace('/** Sums two numbers. */', '/**\n * Sums two numbers.\n * @param a the first\n */'))).toBe(true);
    expect(typeSame(source, source.replace('export function sum(a: number, b: number): number {', '// the sum\nexport function sum(\n  a: number, // first\n  b: number\n): number {'))).toBe(true);
  });
  it('is other when a type, a directive or the line a directive is about changes', () => {
    expect(typeSame(source, source.replace('b: number)', 'b: string)'))).toBe(false);
    expect(typeSame(source, source.replace('// @ts-ignore: the legacy module has no types\n', ''))).toBe(false);
    expect(typeSame(source, source.replace('// @ts-ignore: the legacy module has no types\n', '// @ts-ignore: the legacy module has no types\n\n'))).toBe(false);
    expect(typeSame(source, source.replace("import legacy from './legacy';", "import legacy\n  from './legacy';"))).toBe(false);
    expect(typeSame(source, `// @ts-nocheck\n${source}`)).toBe(false);
    expect(typeSame(source, source.replace('/** Sums two numbers. */', '/** @internal */'))).toBe(false);
    expect(typeSame(source, `/// <reference types="node" />\n${source}`)).toBe(false);
    expect(typeSame(source, source.replace("'./legacy'", '"./legacy"'))).toBe(false);
    expect(typeSame(source, source.replace('return legacy(a + b);', 'return legacy(a + b'))).toBe(false);
  });
  it('counts JSDoc as types in JavaScript (checkJs reads it), and plain comments as nothing', () => {
    const js = '/** @param {number} a */\nexport function twice(a) {\n  return a * 2;\n}\n';
    expect(typeSame(js, js.replace('{number}', '{string}'), 'src/twice.js')).toBe(false);
    expect(typeSame(js, js.replace('  return', '  // double it\n  return'), 'src/twice.js')).toBe(true);
  });
});

describe('what a type checker reads: mypy and pyright', () => {
  const module = 'import legacy  # type: ignore[import-untyped]\n\n\ndef total(a: int, b: int) -> int:\n    """Adds."""\n    return legacy.add(a, b)  # plain\n';
  it('is the same with other comments and layout; other with a directive, a type comment, a docstring or an annotation changed', async () => {
    const answers = await samePythonToTypeCheckers(
      'python3',
      [
        [module, `# helpers\n${module.replace('  # plain', '').replace('def total(a: int, b: int) -> int:', 'def total(\n    a: int,\n    b: int,\n) -> int:')}`],
        [module, module.replace('  # type: ignore[import-untyped]', '')],
        [module, module.replace('  # plain', '  # type: ignore')],
        [module, module.replace('import legacy  # type: ignore[import-untyped]', 'import legacy as legacy  # type: ignore[import-untyped]')],
        [module, `# mypy: disable-error-code="no-untyped-def"\n${module}`],
        [module, `# pyright: basic\n${module}`],
        [module, module.replace('"""Adds."""', '"""Adds two."""')],
        [module, module.replace('b: int)', 'b: str)')],
        ['def f(a):  # type: (int) -> int\n    return a\n', 'def f(a):  # type: (str) -> int\n    return a\n'],
      ],
      process.cwd(),
    );
    expect(answers).toEqual([true, false, false, false, false, false, false, false, false]);
  });
});

describe('what other modules read of a Python module: its declarations, not its typed bodies', () => {
  const module = [
    'import os',
    '',
    '',
    'class Store:',
    '    def __init__(self) -> None:',
    '        self.items: list[str] = []',
    '',
    '    def count(self) -> int:',
    '        """How many."""',
    '        return len(self.items)',
    '',
    '    def names(self):',
    '        return list(self.items)',
    '',
    '    def each(self) -> object:',
    '        return iter(self.items)',
    '',
    '    def base(self) -> int:',
    '        ...',
    '',
    '',
    'def home() -> str:',
    '    return os.getcwd()',
    '',
  ].join('\n');
  it('is the body alone for a typed function; everything a caller can read otherwise', async () => {
    const answers = await changedInTypedBodiesOnly(
      'python3',
      [
        [module, module.replace('return len(self.items)', 'return sum(1 for _ in self.items)')],
        [module, module.replace('"""How many."""', '"""How many items."""')],
        [module, module.replace('return os.getcwd()', 'def inner() -> str:\n        return os.getcwd()\n\n    return inner()')],
        [module, module.replace('return list(self.items)', 'return tuple(self.items)')],
        [module, module.replace('return len(self.items)', 'self.total = len(self.items)\n        return self.total')],
        [module, module.replace('return os.getcwd()', 'global CACHE\n    CACHE = os.getcwd()\n    return CACHE')],
        [module, module.replace('return iter(self.items)', 'yield from self.items')],
        [module, module.replace('    def base(self) -> int:\n        ...', '    def base(self) -> int:\n        return 0')],
        [module, module.replace('def count(self) -> int:', 'def count(self) -> float:')],
        [module, module.replace('import os', 'import os\nimport sys')],
        [module, module.replace('return os.getcwd()', 'return os.getcwd(')],
      ],
      process.cwd(),
    );
    expect(answers).toEqual([true, true, true, false, false, false, false, false, false, false, false]);
  });
});

describe('TypeScript: the same declarations (what a type test checks)', () => {
  const LIBRARY = `export function clamp(n: number, min: number, max: number): number {
  return Math.min(Math.max(n, min), max);
}

export const double = (n: number): number => n * 2;

export const triple = (n: number) => n * 3;

export class Box {
  constructor(private readonly value: number) {
    if (value < 0) throw new Error('negative');
  }
  get size(): number {
    return this.value;
  }
  label = (): string => 'box';
}

export const ready = clamp(1, 0, 2);
`;
  it.each([
    ['a typed function body', LIBRARY.replace('return Math.min(Math.max(n, min), max);', 'if (min > max) return clamp(n, max, min);\n  return Math.min(Math.max(n, min), max);'), true],
    ['a typed arrow body', LIBRARY.replace('=> n * 2', '=> n + n'), true],
    ['a constructor body', LIBRARY.replace("throw new Error('negative')", "throw new RangeError('negative')"), true],
    ['a typed getter body and a typed property arrow', LIBRARY.replace('return this.value;', 'return this.value + 0;').replace("=> 'box'", "=> 'a box'"), true],
    ['a comment and layout', LIBRARY.replace('export const double', '// twice\nexport const  double'), true],
    ['an arrow whose type comes from its body', LIBRARY.replace('=> n * 3', '=> `${n * 3}`'), false],
    ['a declared return type', LIBRARY.replace('(n: number): number => n * 2', '(n: number): number | string => n * 2'), false],
    ['a top-level statement', LIBRARY.replace('clamp(1, 0, 2)', 'clamp(1, 0, 3)'), false],
    ['a new export', `${LIBRARY}export const four = 4;\n`, false],
  ])('%s', (_, after, expected) => {
    expect(sameDeclarations(ts, 'src/clamp.ts', LIBRARY, after)).toBe(expected);
  });

  it('JavaScript (types inferred), declaration files and code that does not parse are never the same', () => {
    expect(sameDeclarations(ts, 'src/clamp.js', 'export const a = () => 1;\n', 'export const a = () => 2;\n')).toBe(false);
    expect(sameDeclarations(ts, 'src/clamp.d.ts', 'export declare const a: number;\n', 'export declare const a: number; \n')).toBe(false);
    expect(sameDeclarations(ts, 'src/clamp.ts', LIBRARY, LIBRARY.replace('=> n * 2', '=> n * ('))).toBe(false);
  });
});
