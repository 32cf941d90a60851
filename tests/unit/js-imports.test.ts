import { describe, expect, it } from 'vitest';
import { mochaTestMatcher, nodeTestMatcher, stripsTypes } from '../../src/fast/js-test-files.js';
import { setupInScript } from '../../src/fast/js-test-runners.js';
import { parseJsImports } from '../../src/fast/parse-js-imports.js';
import type { ModuleGraph } from '../../src/fast/js-module-graph.js';
import { findReachingTests } from '../../src/fast/reaching-tests.js';
import { parseJsonOptions, parseYamlOptions } from '../../src/fast/read-mocha-config.js';
import { type ModuleFiles, resolveJsImport } from '../../src/fast/resolve-js-import.js';
import { stripJsComments } from '../../src/fast/strip-js-comments.js';

describe('parseJsImports', () => {
  it('finds every form of import with a string literal', () => {
    const source = [
      "import a from './a.js';",
      "import { b,\n  c } from '../lib/bc';",
      "import type { T } from './types';",
      "import './side-effect.mjs';",
      "export * from './re-export';",
      "export { d } from \"./d.cjs\";",
      "const e = require('./e');",
      'const f = await import(`./f.js`);',
      "const g = await import('./g.json', { with: { type: 'json' } });",
      "import h = require('./h');",
      "import assert from 'node:assert';",
      "const chai = require('chai');",
    ].join('\n');
    expect(parseJsImports(source).specifiers.sort()).toEqual(
      ['../lib/bc', './a.js', './d.cjs', './e', './f.js', './g.json', './h', './re-export', './side-effect.mjs', './types', 'chai', 'node:assert'].sort(),
    );
    expect(parseJsImports(source).computed).toEqual([]);
  });

  it('reports a require or import() of anything but a literal, and not one in a comment', () => {
    const source = [
      '// require(name) in a comment is prose',
      '/* import(x) */',
      'const plugin = require(name);',
      "const page = await import(`./pages/${id}.js`);",
      "const joined = require('./a' + suffix);",
      'module.exports = { load: (x) => obj.require(x) };',
    ].join('\n');
    expect(parseJsImports(source).computed).toEqual(['const plugin = require(name);', 'const page = await import(`./pages/${id}.js`);', "const joined = require('./a' + suffix);"]);
  });

  it('keeps any other relative path literal (proxyquire, mock.module), but no bare name from a comment', () => {
    const source = "// import lib from 'my-own-package'\nconst stubbed = proxyquire('../src/db.js', {});\nmock.module('./clock.js');\n";
    const found = parseJsImports(source);
    expect(found.specifiers).toEqual([]);
    expect(found.relativePaths.sort()).toEqual(['../src/db.js', './clock.js']);
  });

  it('is not fooled by regular expressions and templates holding comment or quote characters', () => {
    const source = ["const re = /\\/*'/;", "const t = `// ${a ? '/*' : `x`}`;", "import z from './z';", 'const d = a / b; // /*', "require('./after');"].join('\n');
    expect(parseJsImports(source).specifiers.sort()).toEqual(['./after', './z']);
  });

  it('reads no import from the words of a string (graphql-js: `changed defaultValue from "test" to "Test"`)', () => {
    const source = [
      "import { expect } from 'chai';",
      "import { findBreakingChanges } from '../findBreakingChanges';",
      "const want = 'Type1.field1 arg stringArg has changed defaultValue from \"test\" to \"Test\".';",
      'const other = "moved from \'lodash\' and require(\'left-pad\')";',
      'const doc = `import \'lib\'; ${ok ? `from "inner"` : require(\'./real\')}`;',
    ].join('\n');
    const found = parseJsImports(source);
    expect(found.specifiers.sort()).toEqual(['../findBreakingChanges', './real', 'chai']);
    expect(found.computed).toEqual([]);
  });
});

describe('stripJsComments', () => {
  it('blanks comments and keeps line numbers, strings and URLs in strings', () => {
    expect(stripJsComments('a // x\n/* y\nz */b "http://c" \'/*\'')).toBe('a     \n    \n    b "http://c" \'/*\'');
  });

  it('blanks the text of strings and templates when asked, keeping quotes, offsets and `${…}` code', () => {
    const source = 'f("a b", \'c\') + `x ${g(\'y\')} z` // n';
    const blanked = stripJsComments(source, { blankStrings: true });
    expect(blanked).toBe('f("   ", \' \') + `  ${g(\' \')}  `     ');
    expect(blanked.length).toBe(source.length);
  });
});

/** A file system from a map of path → content; directories are implied by the paths. */
function memoryFiles(tree: Record<string, string>, links: Record<string, string> = {}): ModuleFiles {
  return {
    kind: (path) => (path in tree ? 'file' : Object.keys(tree).some((file) => file.startsWith(`${path}/`)) ? 'directory' : undefined),
    read: (path) => tree[path],
    realpath: (path) => links[path] ?? path,
  };
}

describe('resolveJsImport', () => {
  const files = memoryFiles({
    '/p/package.json': JSON.stringify({ name: 'shop', imports: { '#db': './src/db.js', '#util/*': { node: './src/util/*.ts', default: './src/util/*.js' } } }),
    '/p/src/price.ts': '',
    '/p/src/cart.mjs': '',
    '/p/src/legacy.cjs': '',
    '/p/src/view.tsx': '',
    '/p/src/db.js': '',
    '/p/src/util/money.ts': '',
    '/p/src/lib/index.ts': '',
    '/p/src/pkg/package.json': JSON.stringify({ main: 'main.js' }),
    '/p/src/pkg/main.js': '',
    '/p/src/data.json': '',
    '/p/src/globals.d.ts': '',
    '/p/node_modules/chai/package.json': '{}',
    '/p/node_modules/@shop/core/package.json': '{}',
  }, { '/p/node_modules/@shop/core': '/p/packages/core' });

  it.each([
    ['./price.js', ['/p/src/price.ts']],
    ['./price', ['/p/src/price.ts']],
    ['./cart.mjs', ['/p/src/cart.mjs']],
    ['./legacy', ['/p/src/legacy.cjs']],
    ['./view.js', ['/p/src/view.tsx']],
    ['./lib', ['/p/src/lib/index.ts']],
    ['./lib/index.js', ['/p/src/lib/index.ts']],
    ['./pkg', ['/p/src/pkg/main.js']],
    ['../src/db', ['/p/src/db.js']],
    ['./data.json', []],
    ['./globals', ['/p/src/globals.d.ts']],
    ['./globals.js', ['/p/src/globals.d.ts']],
    ['./missing', []],
    ['#db', ['/p/src/db.js']],
    ['#util/money', ['/p/src/util/money.ts']],
  ])('%s from src/ names %j', (specifier, expected) => {
    expect(resolveJsImport(specifier, '/p/src/index.ts', files)).toEqual({ kind: 'local', files: expected });
  });

  it('leaves built-ins and installed packages out', () => {
    for (const specifier of ['node:fs', 'fs', 'fs/promises', 'chai', 'chai/lib/x.js']) expect(resolveJsImport(specifier, '/p/src/a.js', files)).toEqual({ kind: 'external' });
  });

  it('cannot tell where a workspace link, its own package name, an unknown #import or a missing package lead', () => {
    expect(resolveJsImport('@shop/core', '/p/src/a.js', files)).toMatchObject({ kind: 'unknown', why: expect.stringContaining('workspace') });
    expect(resolveJsImport('shop/lib', '/p/src/a.js', files)).toMatchObject({ kind: 'unknown', why: expect.stringContaining('its own package') });
    expect(resolveJsImport('#nope', '/p/src/a.js', files)).toMatchObject({ kind: 'unknown' });
    expect(resolveJsImport('~/alias', '/p/src/a.js', files)).toMatchObject({ kind: 'unknown', why: expect.stringContaining('not installed') });
  });
});

describe('findReachingTests', () => {
  const edges: Record<string, string[]> = {
    'a.test': ['a', 'shared'],
    'b.test': ['b'],
    'leaf.test': ['leaf'],
    a: ['shared'],
    b: ['shared'],
    setup: ['clock'],
  };
  const graphOf = (unknown: Record<string, string> = {}): ModuleGraph => ({
    edges: new Map(Object.entries(edges).map(([file, targets]) => [file, new Set(targets)])),
    through: new Map(),
    unknown: new Map(Object.entries(unknown)),
    named: new Map(),
    imported: new Set(Object.values(edges).flat()),
    takesWhole: new Map(),
    bindings: () => ({ imports: new Map(), reExports: [], defines: new Set(), topLevelEffects: false, paths: [], unfollowable: undefined }),
  });
  const reach = (changed: string[], unknown?: Record<string, string>) => findReachingTests({ tests: ['a.test', 'b.test', 'leaf.test'], setup: ['setup'], changed, graph: graphOf(unknown) });

  it('selects the tests that import the change through any path', () => {
    expect(reach(['leaf'])).toEqual({ kind: 'tests', tests: ['leaf.test'] });
    expect(reach(['shared'])).toEqual({ kind: 'tests', tests: ['a.test', 'b.test'] });
    expect(reach(['b.test'])).toEqual({ kind: 'tests', tests: ['b.test'] });
    expect(reach(['nobody-imports-me'])).toEqual({ kind: 'tests', tests: [] });
  });

  it('says when a setup file reaches the change', () => {
    expect(reach(['leaf', 'clock'])).toEqual({ kind: 'setup', setup: 'setup', changed: 'clock' });
  });

  it('gives up when an unselected test reaches an import it cannot resolve, not when a selected one does', () => {
    const dynamic = { b: 'has a computed require' };
    expect(reach(['leaf'], dynamic)).toEqual({ kind: 'unknown', test: 'b.test', module: 'b', why: 'has a computed require' });
    expect(reach(['shared'], dynamic)).toEqual({ kind: 'tests', tests: ['a.test', 'b.test'] });
  });
});

describe('which files are tests', () => {
  it('node --test: the default patterns, .ts ones only where Node strips types', () => {
    const old = nodeTestMatcher('20.19.0');
    expect(['a.test.js', 'src/b-test.mjs', 'c_test.cjs', 'test-d.js', 'test.js', 'test/helpers/x.js', '.hidden/e.test.js'].every(old)).toBe(true);
    expect(['src/a.js', 'a.spec.js', 'a.test.ts', 'testing/a.js'].some(old)).toBe(false);
    expect(nodeTestMatcher('22.18.0')('src/a.test.ts')).toBe(true);
    expect(['.hidden/e.test.js', 'a/.b/test.js'].some(nodeTestMatcher('22.18.0'))).toBe(false);
    expect([stripsTypes('v23.5.0'), stripsTypes('22.17.1'), stripsTypes('23.6.0'), stripsTypes('24.0.0')]).toEqual([false, false, true, true]);
  });

  it('mocha: files, directories (with recursive), globs and ignore as mocha reads its spec', () => {
    const kinds: Record<string, 'file' | 'directory'> = { test: 'directory', 'spec/one.js': 'file', integration: 'directory' };
    const isTest = mochaTestMatcher({ spec: ['test', './spec/one.js', 'src/**/*.spec.ts'], extension: ['js', 'cjs', 'mjs'], recursive: false, ignore: ['src/slow/**'] }, (file) => kinds[file]);
    expect(isTest && ['test/a.js', 'test/b.mjs', 'spec/one.js', 'src/x/y.spec.ts'].every(isTest)).toBe(true);
    expect(isTest && ['test/deep/a.js', 'test/.hidden.js', 'test/a.ts', 'spec/two.js', 'src/slow/z.spec.ts'].some(isTest)).toBe(false);
    const recursive = mochaTestMatcher({ spec: ['integration'], extension: ['ts'], recursive: true, ignore: [] }, (file) => kinds[file]);
    expect(recursive?.('integration/deep/a.ts')).toBe(true);
    expect(mochaTestMatcher({ spec: ['../elsewhere'], extension: ['js'], recursive: false, ignore: [] }, () => undefined)).toBeUndefined();
  });

  it('reads the spec-related options of a JSON or YAML mocharc, aliases and comma lists included', () => {
    expect(parseJsonOptions('{\n  // comment\n  "spec": "test/**/*.spec.js", "r": "ts-node/register,./test/hooks.js", "timeout": 5000\n}')).toEqual({
      spec: ['test/**/*.spec.js'],
      require: ['ts-node/register', './test/hooks.js'],
    });
    expect(parseJsonOptions('{ "name": "x", "mocha": { "exclude": ["a"], "recursive": true } }', 'mocha')).toEqual({ ignore: ['a'], recursive: true });
    expect(parseYamlOptions('# config\nspec:\n  - "test/**/*.js"  # all\n  - other\nextension: [js, ts]\nrecursive: true\ntimeout: 200\nreporter-option:\n  foo: bar\n')).toEqual({
      spec: ['test/**/*.js', 'other'],
      extension: ['js', 'ts'],
      recursive: true,
    });
    expect(parseYamlOptions('spec: &s test\n')).toBeUndefined();
    expect(parseYamlOptions('spec:\n  nested: map\n')).toBeUndefined();
  });

  it('finds the files a package.json test script loads before the tests', () => {
    expect(setupInScript("node --import ./test/setup.mjs -r ts-node/register --test && mocha --file=test/root.js '--require' \"test/env.js\"")).toEqual([
      './test/setup.mjs',
      'ts-node/register',
      'test/root.js',
      'test/env.js',
    ]);
  });
});
