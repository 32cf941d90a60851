import { describe, expect, it } from 'vitest';
import { hasTopLevelEffects, parseJsBindings } from '../../src/fast/js-bindings.js';
import { buildModuleGraph } from '../../src/fast/js-module-graph.js';
import type { ModuleFiles } from '../../src/fast/resolve-js-import.js';

const imports = (source: string) => Object.fromEntries(parseJsBindings(source).imports);

describe('parseJsBindings: the names a module takes', () => {
  it('takes no import or re-export from the words of a string', () => {
    const source = "import { a } from './x';\nconst s = 'import { b } from \"./y\"; export * from \"./z\"; changed from \"test\"';\n";
    expect(imports(source)).toEqual({ './x': ['a'] });
    expect(parseJsBindings(source).reExports).toEqual([]);
  });

  it('reads named, default, renamed and type imports', () => {
    expect(imports("import def, { a, b as c, type T } from './x';\nimport type { U } from './y';\n")).toEqual({ './x': ['default', 'a', 'b', 'T'], './y': ['U'] });
  });

  it('reads the members a namespace import uses, and takes all of it when the namespace is a value', () => {
    expect(imports("import * as _ from 'lib';\n_.sum(1, 2);\n_?.greet('x');\n")).toEqual({ lib: ['sum', 'greet'] });
    expect(imports("import * as _ from 'lib';\nconsole.log(Object.keys(_));\n")).toEqual({ lib: 'all' });
    expect(imports("import * as _ from 'lib';\nconst f = _[name];\n")).toEqual({ lib: 'all' });
    expect(imports("import * as _ from 'lib';\nconst g = (a = _) => a;\n")).toEqual({ lib: 'all' });
  });

  it('does not take a parameter or a string that shares the namespace name for a use of it', () => {
    const source = "import * as _ from 'lib';\nconst x = _.map(list, (_, index) => index);\nconst y = list.map(_ => 1);\nexpect(_.trim('_')).toBe('_');\nfunction f(a, _) { return a; }\n";
    expect(imports(source)).toEqual({ lib: ['map', 'trim'] });
  });

  it('takes all of a module loaded for its effects, required, imported dynamically or imported without names', () => {
    expect(imports("import './polyfill';\nconst r = require('./r');\nconst d = await import('./d');\nimport {} from './empty';\n")).toEqual({ './polyfill': 'all', './r': 'all', './d': 'all', './empty': 'all' });
  });

  it('reads re-exports with their renames', () => {
    const found = parseJsBindings("export * from './a';\nexport { b as c, default as d } from './b';\nexport * as ns from './n';\nexport type { T } from './t';\n");
    expect(found.reExports.map((entry) => [entry.specifier, entry.names && Object.fromEntries(entry.names)])).toEqual([
      ['./a', undefined],
      ['./n', { ns: '*' }],
      ['./b', { c: 'b', d: 'default' }],
      ['./t', { T: 'T' }],
    ]);
    expect(found.imports.size).toBe(0);
  });

  it('lists the names a module defines, or none it can be sure of', () => {
    const defined = parseJsBindings('export function f() {}\nexport async function g() {}\nexport const h = 1, z = 2;\nexport class K {}\nexport interface I {}\nexport type T = 1;\nconst m = 1;\nexport { m as n };\nexport default f;\n').defines;
    expect([...(defined ?? [])].sort()).toEqual(['K', 'I', 'T', 'default', 'f', 'g', 'h', 'n'].sort());
    expect(parseJsBindings('export const { a, b } = obj;\n').defines).toBeUndefined();
    expect(parseJsBindings('module.exports = { a };\n').defines).toBeUndefined();
  });
});

describe('hasTopLevelEffects', () => {
  it('is false for declarations, imports and exports, at any length', () => {
    expect(hasTopLevelEffects("'use strict';\nimport x from './x';\n\nexport function f(a) {\n  console.log(a);\n  return a;\n}\nconst t = {\n  a: 1,\n};\nexport default class K {}\n")).toBe(false);
  });

  it('is true for a statement that does something when the module loads, or brackets it cannot balance', () => {
    expect(hasTopLevelEffects('export const a = 1;\nglobalThis.a = a;\n')).toBe(true);
    expect(hasTopLevelEffects('export const a = 1;\n;(async () => {})();\n')).toBe(true);
    expect(hasTopLevelEffects('register(plugin);\n')).toBe(true);
    expect(hasTopLevelEffects('@Entity()\nexport class User {}\n')).toBe(true);
    expect(hasTopLevelEffects('export const a = (1;\n')).toBe(true);
  });
});

/** A file system of a few modules under /p. */
function filesOf(tree: Record<string, string>): ModuleFiles {
  const dirs = new Set(Object.keys(tree).flatMap((path) => path.split('/').slice(1, -1).map((_, i, parts) => `/${parts.slice(0, i + 1).join('/')}`)));
  return {
    kind: (path) => (path in tree ? 'file' : dirs.has(path) ? 'directory' : undefined),
    read: (path) => tree[path],
    realpath: (path) => path,
  };
}

describe('buildModuleGraph: imports through a barrel', () => {
  const tree = {
    '/p/tsconfig.json': '{ "compilerOptions": { "paths": { "lib": ["./src/index.ts"] } }, }\n',
    '/p/src/index.ts': "export * from './a';\nexport * from './inner';\nexport { c as see } from './c';\n",
    '/p/src/inner.ts': "export * from './b';\n",
    '/p/src/a.ts': 'export const a = 1;\n',
    '/p/src/b.ts': 'export function b() {}\n',
    '/p/src/c.ts': 'export const c = 3;\n',
    '/p/test/b.test.ts': "import { b } from 'lib';\n",
    '/p/test/see.test.ts': "import * as lib from 'lib';\nlib.see;\n",
    '/p/test/all.test.ts': "import * as lib from 'lib';\nconsole.log(lib);\n",
  };
  const graph = buildModuleGraph(Object.keys(tree).filter((path) => path.endsWith('.ts')), filesOf(tree), 100);

  it('links a test to the module that defines the name it uses, through nested and renamed re-exports, and records the barrels passed', () => {
    expect([...(graph?.edges.get('/p/test/b.test.ts') ?? [])]).toEqual(['/p/src/b.ts']);
    expect([...(graph?.edges.get('/p/test/see.test.ts') ?? [])]).toEqual(['/p/src/c.ts']);
    expect([...(graph?.through.get('/p/src/inner.ts') ?? [])]).toEqual(['/p/test/b.test.ts']);
    expect([...(graph?.through.get('/p/src/index.ts') ?? [])].sort()).toEqual(['/p/test/b.test.ts', '/p/test/see.test.ts']);
  });

  it('links a test that takes the whole barrel to the barrel', () => {
    expect([...(graph?.edges.get('/p/test/all.test.ts') ?? [])]).toEqual(['/p/src/index.ts']);
    expect(graph?.takesWhole.get('/p/test/all.test.ts')).toBe('/p/src/index.ts');
  });

  it('gives up past its limit', () => {
    expect(buildModuleGraph(Object.keys(tree).filter((path) => path.endsWith('.ts')), filesOf(tree), 3)).toBeUndefined();
  });
});

describe('buildModuleGraph: what it cannot follow', () => {
  it('counts a glob import (import.meta.glob, require.context) as an import it cannot name', () => {
    const tree = { '/p/test/all.test.ts': "const modules = import.meta.glob('../src/*.ts');\n", '/p/src/a.ts': 'export const a = 1;\n' };
    const graph = buildModuleGraph(['/p/test/all.test.ts'], filesOf(tree), 100);
    expect(graph?.unknown.get('/p/test/all.test.ts')).toBe('imports modules by a pattern (import.meta.glob(…)');
  });
});

describe('buildModuleGraph: one node per module, by its real path', () => {
  it('takes a module reached through a link (a tsconfig path into node_modules) for the module itself', () => {
    const tree = {
      '/p/tsconfig.json': '{ "compilerOptions": { "paths": { "lib": ["./node_modules/lib/src/index.ts"] } } }\n',
      '/p/packages/lib/src/index.ts': "export * from './a';\n",
      '/p/packages/lib/src/a.ts': 'export const a = 1;\n',
      '/p/app/a.test.ts': "import { a } from 'lib';\n",
    };
    const linked = Object.fromEntries(Object.entries(tree).filter(([path]) => path.startsWith('/p/packages/lib/')).map(([path, text]) => [path.replace('/p/packages/lib/', '/p/node_modules/lib/'), text]));
    const plain = filesOf({ ...tree, ...linked });
    const files: ModuleFiles = { ...plain, realpath: (path) => path.replace(/^\/p\/node_modules\/lib(?=\/|$)/, '/p/packages/lib') };
    const graph = buildModuleGraph(['/p/app/a.test.ts'], files, 100);
    expect([...(graph?.edges.get('/p/app/a.test.ts') ?? [])]).toEqual(['/p/packages/lib/src/a.ts']);
  });
});
