import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const gateConfig = (gates: object[]) => `${JSON.stringify({ gates }, null, 2)}\n`;
const statusJson = (r: TempRepo) => JSON.parse(runBin(['status', '--json'], { cwd: r.dir, env: r.env }).stdout) as { gates: Array<{ fast?: boolean; reason?: string; tier?: string; command?: string }> };
const lastStop = (r: TempRepo) => (JSON.parse(runBin(['log', '--json'], { cwd: r.dir, env: r.env }).stdout) as Array<{ gates: Array<{ name: string; tier?: string; status: string }> }>).at(-1);
const gateLog = (r: TempRepo) => readFileSync(join(r.dir, '.git', 'gate', 'logs', 'test.log'), 'utf8');

// The same small shop for both runners: a shared module, two modules that use it, a leaf, a test for each.
// Math.floor in place of Math.round changes only what price.test checks (12.5 cents).
const ROUND_DOWN = 'Math.floor(amount * 100)';

describe('node --test: the test files that import the change', () => {
  const test = (module: string, name: string, body: string) =>
    `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ${name} } from '../src/${module}.js';\n\ntest('${name} works', () => assert.equal(${body}));\n`;
  const project = (cart = "import { cents } from './shared.js';\n\nexport const total = (amounts) => amounts.reduce((sum, amount) => sum + cents(amount), 0);\n") => ({
    '.gitignore': 'node_modules\n',
    'package.json': '{ "type": "module", "scripts": { "test": "node --test" } }\n',
    'src/shared.js': 'export const cents = (amount) => Math.round(amount * 100);\n',
    'src/price.js': "import { cents } from './shared.js';\n\nexport const price = (amount) => `${cents(amount)}c`;\n",
    'src/cart.js': cart,
    'src/leaf.js': 'export const greet = (name) => `hello ${name}`;\n',
    'test/shared.test.js': test('shared', 'cents', 'cents(2), 200'),
    'test/price.test.js': test('price', 'price', "price(0.125), '13c'"),
    'test/cart.test.js': test('cart', 'total', 'total([1, 2]), 300'),
    'test/leaf.test.js': test('leaf', 'greet', "greet('ann'), 'hello ann'"),
    'gate.config.json': gateConfig([{ name: 'test', preset: 'node-test' }]),
  });

  it('runs only the leaf\'s test file when the leaf changed, and blocks on it', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/leaf.js', 'export const greet = (name) => `hi ${name}`;\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: true, tier: '1 test file that imports src/leaf.js', command: 'node --test --test-reporter=spec test/leaf.test.js' });
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('$ node --test --test-reporter=spec test/leaf.test.js\n');
    expect(blocked.stderr).toContain('✖ greet works');
    expect(blocked.stderr).toContain('test/leaf.test.js:5');
    expect(gateLog(repo)).not.toMatch(/cents works|price works|total works/);
    expect(lastStop(repo)?.gates[0]?.tier).toBe('1 test file that imports src/leaf.js');
    repo.write('src/leaf.js', 'export const greet = (name) => `hello ${name}`;\n// reworded\n');
    expect(stop(repo).code).toBe(0);
  });

  it('runs the tests of every module that uses a changed shared module, and names the one that fails', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/shared.js', `export const cents = (amount) => ${ROUND_DOWN};\n`);
    expect(statusJson(repo).gates[0]).toMatchObject({
      fast: true,
      tier: '3 test files that import src/shared.js',
      command: 'node --test --test-reporter=spec test/cart.test.js test/price.test.js test/shared.test.js',
    });
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('✖ price works');
    expect(blocked.stderr).toContain('test/price.test.js:5');
    // Node 20 prints the counts on one line, later Nodes one per line.
    expect(blocked.stderr).toMatch(/pass 2[,\sℹ]+fail 1/);
    expect(gateLog(repo)).not.toContain('greet works');
  });

  it('runs everything when package.json changed', () => {
    repo = makeRepo(project(), { nodeModules: true });
    repo.write('package.json', '{ "type": "module", "scripts": { "test": "node --test --test-concurrency=1" } }\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: false, reason: 'package.json changed, a lockfile or manifest (the full run)', tier: 'the full run', command: 'node --test --test-reporter=spec' });
  });

  it('runs no test when package.json changed only in a script the gate does not run, and says so', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('package.json', '{\n  "type": "module",\n  "scripts": { "test": "node --test", "lint": "biome check ." }\n}\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ reason: 'package.json changed only in scripts.lint: no dependency, entry point, runner config or test script, nothing this gate reads' });
    expect(stop(repo).code).toBe(0);
    expect(lastStop(repo)?.gates ?? []).toEqual([]);
  });

  it('runs nothing when no test reaches the change', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/unused.js', 'export const unused = 1;\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ tier: 'no test imports src/unused.js', command: '(nothing to run)' });
    expect(stop(repo).code).toBe(0);
    expect(lastStop(repo)?.gates[0]).toMatchObject({ status: 'skipped', tier: 'no test imports src/unused.js' });
  });

  it('runs everything when a test it would leave out reaches an import it cannot follow', () => {
    const pluggable = "import { cents } from './shared.js';\n\nconst plugin = process.env.CART_PLUGIN;\nif (plugin) await import(plugin);\n\nexport const total = (amounts) => amounts.reduce((sum, amount) => sum + cents(amount), 0);\n";
    repo = makeRepo(project(pluggable), { nodeModules: true });
    repo.write('src/leaf.js', 'export const greet = (name) => `hi ${name}`;\n');
    expect(statusJson(repo).gates[0]).toMatchObject({
      fast: false,
      tier: "test/cart.test.js reaches src/cart.js, which has an import gate can't follow: if (plugin) await import(plugin);",
      command: 'node --test --test-reporter=spec',
    });
  });

  it('with "related": false runs the full command', () => {
    repo = makeRepo({ ...project(), 'gate.config.json': gateConfig([{ name: 'test', preset: 'node-test', related: false }]) }, { nodeModules: true });
    repo.write('src/leaf.js', 'export const greet = (name) => `hi ${name}`;\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: false, command: 'node --test --test-reporter=spec' });
  });
});

describe('mocha: the spec files that require the change, the .mocharc spec kept out', () => {
  const spec = (module: string, name: string, call: string, expected: string) =>
    `const assert = require('node:assert/strict');\nconst { ${name} } = require('../src/${module}');\n\ndescribe('${module}', () => {\n  it('${name} works', () => assert.equal(${call}, ${expected}));\n});\n`;
  const project = () => ({
    '.gitignore': 'node_modules\n',
    'package.json': '{ "name": "shop", "scripts": { "test": "mocha" } }\n',
    // A spec in the config is added to the files on the command line: the fast tier has to exclude it.
    '.mocharc.json': '{\n  "spec": ["test/**/*.spec.js"],\n  "require": ["test/hooks.js"]\n}\n',
    'src/shared.js': 'exports.cents = (amount) => Math.round(amount * 100);\n',
    'src/price.js': "const { cents } = require('./shared');\n\nexports.price = (amount) => `${cents(amount)}c`;\n",
    'src/cart.js': "const { cents } = require('./shared');\n\nexports.total = (amounts) => amounts.reduce((sum, amount) => sum + cents(amount), 0);\n",
    'src/leaf.js': 'exports.greet = (name) => `hello ${name}`;\n',
    'src/clock.js': 'exports.now = () => 0;\n',
    'test/hooks.js': "const { now } = require('../src/clock');\n\nexports.mochaHooks = { beforeAll() { now(); } };\n",
    'test/shared.spec.js': spec('shared', 'cents', 'cents(2)', '200'),
    'test/price.spec.js': spec('price', 'price', 'price(0.125)', "'13c'"),
    'test/cart.spec.js': spec('cart', 'total', 'total([1, 2])', '300'),
    'test/leaf.spec.js': spec('leaf', 'greet', "greet('ann')", "'hello ann'"),
    'gate.config.json': gateConfig([{ name: 'test', preset: 'mocha' }]),
  });

  it('runs only the leaf\'s spec file when the leaf changed, and blocks on it', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/leaf.js', 'exports.greet = (name) => `hi ${name}`;\n');
    const command = "npx mocha --ignore '!test/leaf.spec.js' test/leaf.spec.js";
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: true, tier: '1 test file that imports src/leaf.js', command });
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain(`$ ${command}\n`);
    expect(blocked.stderr).toContain('FAIL leaf > greet works');
    expect(blocked.stderr).toContain('0 passing, 1 failing');
    expect(gateLog(repo)).not.toMatch(/cents works|price works|total works/);
    repo.write('src/leaf.js', 'exports.greet = (name) => `hello ${name}`;\n// reworded\n');
    expect(stop(repo).code).toBe(0);
  });

  it('runs the spec files of every module that uses a changed shared module, and names the one that fails', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/shared.js', `exports.cents = (amount) => ${ROUND_DOWN};\n`);
    const files = 'test/cart.spec.js test/price.spec.js test/shared.spec.js';
    expect(statusJson(repo).gates[0]).toMatchObject({
      fast: true,
      tier: '3 test files that import src/shared.js',
      command: `npx mocha --ignore '!{${files.replaceAll(' ', ',')}}' ${files}`,
    });
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('FAIL price > price works');
    expect(blocked.stderr).toContain('2 passing, 1 failing');
    expect(blocked.stderr).not.toContain('leaf');
  });

  it('runs everything when .mocharc.json changed', () => {
    repo = makeRepo(project(), { nodeModules: true });
    repo.write('.mocharc.json', '{ "spec": ["test/**/*.spec.js"], "require": ["test/hooks.js"], "timeout": 5000 }\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: false, tier: '.mocharc.json changed, which affects every run', command: 'npx mocha' });
  });

  it('runs everything when the change reaches a file every run requires', () => {
    repo = makeRepo(project(), { nodeModules: true });
    repo.write('src/clock.js', 'exports.now = () => 1;\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: false, tier: 'test/hooks.js loads before every test, which imports src/clock.js', command: 'npx mocha' });
  });

  it('runs nothing when no spec file reaches the change', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/unused.js', 'exports.unused = 1;\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ tier: 'no test imports src/unused.js', command: '(nothing to run)' });
    expect(stop(repo).code).toBe(0);
  });

  it('runs everything when the spec is in a JavaScript config it cannot read', () => {
    const { '.mocharc.json': _json, ...rest } = project();
    repo = makeRepo({ ...rest, '.mocharc.cjs': "module.exports = { spec: ['test/**/*.spec.js'] };\n" }, { nodeModules: true });
    repo.write('src/leaf.js', 'exports.greet = (name) => `hi ${name}`;\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: false, tier: 'the mocha config is .mocharc.cjs, code gate does not run: which files are tests is unknown' });
  });
});
