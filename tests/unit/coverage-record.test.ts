import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addRuns } from '../../src/fast/by-coverage/coverage-record.js';
import { findUnits, sourceName } from '../../src/fast/by-coverage/function-units.js';
import { findJsUnits, loadTypescript, narrowWithRecord } from '../../src/fast/by-coverage/narrow-by-record.js';
import { readProcessRun } from '../../src/fast/by-coverage/read-v8-coverage.js';
import { selectByRecord } from '../../src/fast/by-coverage/select-by-record.js';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

const ts = loadTypescript(PROJECT_ROOT);
if (!ts) throw new Error('typescript is a dev dependency of gate');
const jsUnits = findJsUnits(PROJECT_ROOT);

const MATH = [
  'export const RATE = 2;',
  'export const sum = (a: number, b: number): number => a + b;',
  'export function double(a: number): number {',
  '  const twice = (x: number) => x * RATE;',
  '  return twice(a);',
  '}',
  'export class Box {',
  '  size = 1;',
  '  get area(): number {',
  '    return this.size ** 2;',
  '  }',
  '  grow(): void {',
  '    this.size += 1;',
  '  }',
  '}',
  'export const api = { load: function () { return 1; }, save() { return 2; } };',
  'items.forEach(function each() { return 3; });',
  'register(() => 4);',
  '',
].join('\n');

const units = (text: string) => findUnits(ts, 'math.ts', text);

describe('findUnits: the functions a change can be placed in', () => {
  it('are the outermost functions the language names, in source order', () => {
    expect(units(MATH)?.units.map((unit) => unit.name)).toEqual(['sum', 'double', 'area', 'grow', 'load', 'save', 'each']);
  });

  it('a change inside a body changes that unit only; anywhere else, the skeleton', () => {
    const before = units(MATH);
    const inside = units(MATH.replace('x * RATE', 'RATE * x'));
    expect(inside?.skeleton).toBe(before?.skeleton);
    expect(inside?.units.filter((unit, index) => unit.body !== before?.units[index]?.body).map((unit) => unit.name)).toEqual(['double']);
    for (const outside of [MATH.replace('RATE = 2', 'RATE = 3'), MATH.replace('double(a: number)', 'double(a: number, b = 1)'), MATH.replace('size = 1', 'size = 2'), MATH.replace('() => 4', '() => 5'), `${MATH}export function half(a: number) {\n  return a / 2;\n}\n`]) {
      expect(units(outside)?.skeleton).not.toBe(before?.skeleton);
    }
  });

  it("a comment, JSDoc or layout is no change, in a body or outside one (urql: a comment in stringify made 37 test files count as calling a changed function); a line break that moves a semicolon is", () => {
    const before = units(MATH);
    const same = (text: string) => {
      const now = units(text);
      expect(now?.skeleton).toBe(before?.skeleton);
      expect(now?.units).toEqual(before?.units);
    };
    same(MATH.replace('  return twice(a);', '  // the double of a\n  return twice( a ) ; /* done */'));
    same(MATH.replace('export function double', '/** Twice a. */\nexport function double'));
    same(MATH.replace('export const RATE = 2;', '// the rate\nexport const RATE =\n  2;'));
    const asi = units(MATH.replace('  return twice(a);', '  return\n  twice(a);'));
    expect(asi?.units.find((unit) => unit.name === 'double')?.body).not.toBe(before?.units.find((unit) => unit.name === 'double')?.body);
    expect(units(MATH.replace('x * RATE', 'x *RATE'))?.units).toEqual(before?.units);
    expect(units(MATH.replace('x * RATE', 'x * 2'))?.units).not.toEqual(before?.units);
  });

  it('a module with a syntax error has no units', () => {
    expect(units('export function broken( {\n')).toBeUndefined();
  });
});

describe("sourceName: V8's functionName as the source names it", () => {
  it.each([
    ['double', 'double'],
    ['get area', 'area'],
    ['ChildProcess.spawn', 'spawn'],
    ['', undefined],
    ['<instance_members_initializer>', undefined],
  ])('%j → %j', (v8, source) => expect(sourceName(v8)).toBe(source));
});

const script = (path: string, functions: Array<[name: string, count: number]>) => ({
  url: path.startsWith('node:') ? path : pathToFileURL(path).href,
  functions: functions.map(([functionName, count]) => ({ functionName, ranges: [{ count }] })),
});
const isModule = (path: string) => (path.startsWith('/repo/') && !path.includes('/node_modules/') ? path : undefined);
const isTest = (path: string) => path.endsWith('.test.ts');

describe('readProcessRun: one test file process from its V8 coverage', () => {
  it('names the functions it called in each project module', () => {
    const run = readProcessRun([{ result: [script('/repo/tests/math.test.ts', [['', 1]]), script('/repo/src/math.ts', [['', 1], ['double', 1], ['sum', 0], ['get area', 2]]), script('/repo/node_modules/x/index.js', [['x', 1]])] }], isModule, isTest);
    expect(run).toEqual({ kind: 'test', test: '/repo/tests/math.test.ts', modules: new Map([['/repo/tests/math.test.ts', new Set()], ['/repo/src/math.ts', new Set(['double', 'area'])]]) });
  });

  it('gives no record to a process that started another, or ran several test files', () => {
    const spawned = [script('/repo/tests/cli.test.ts', [['', 1]]), script('node:child_process', [['spawnSync', 1]])];
    expect(readProcessRun([{ result: spawned }], isModule, isTest)).toEqual({ kind: 'other', tests: ['/repo/tests/cli.test.ts'] });
    const shared = [script('/repo/tests/a.test.ts', [['', 1]]), script('/repo/tests/b.test.ts', [['', 1]])];
    expect(readProcessRun([{ result: shared }], isModule, isTest)).toEqual({ kind: 'other', tests: ['/repo/tests/a.test.ts', '/repo/tests/b.test.ts'] });
  });

  it("leaves tinypool's CPU probe out (vitest 1-3: the preload counts those execSync calls), and no more than those", () => {
    const probed = (count: number) => [script('/repo/tests/a.test.ts', [['', 1]]), script('node:child_process', [['execSync', count], ['spawnSync', count]]), script('node:internal/child_process', [['spawnSync', count]])];
    expect(readProcessRun([{ result: probed(2) }], isModule, isTest, 2).kind).toBe('test');
    expect(readProcessRun([{ result: probed(3) }], isModule, isTest, 2).kind).toBe('other');
    expect(readProcessRun([{ result: probed(2) }], isModule, isTest, 0).kind).toBe('other');
  });
});

describe('selectByRecord: the rule', () => {
  const TEST = "import { double } from '../src/math';\n";
  const files = new Map([
    ['/repo/src/math.ts', MATH],
    ['/repo/tests/double.test.ts', TEST],
    ['/repo/tests/sum.test.ts', "import { sum } from '../src/math';\n"],
    ['/repo/tests/text.test.ts', "readFileSync('src/math.ts');\n"],
  ]);
  const called = (names: string[]) => new Map([['/repo/src/math.ts', new Set(names)]]);
  const runs = [...files.keys()].filter(isTest).map((test) => ({ kind: 'test' as const, test, modules: new Map([...called(test.includes('double') ? ['double'] : ['sum']), [test, new Set<string>()]]) }));
  const record = addRuns(undefined, runs, (path) => files.get(path), jsUnits, '2026-12-04T10:00:00.000Z', 'configs');
  const select = (now: Map<string, string>, tests = [...files.keys()].filter(isTest)) => selectByRecord({ record, tests, changed: ['/repo/src/math.ts'], read: (path) => now.get(path), findUnits: jsUnits });
  const reasons = (now: Map<string, string>) => select(now).kept.map(({ test, reason }) => `${test.slice(6)}: ${reason}`);

  it('a change inside a function keeps the tests that called it, and those that name the file', () => {
    const now = new Map([...files, ['/repo/src/math.ts', MATH.replace('x * RATE', 'RATE * x')]]);
    expect(reasons(now)).toEqual(['tests/double.test.ts: called', 'tests/text.test.ts: names-file']);
    expect(select(now).functions).toEqual(new Map([['/repo/src/math.ts', ['double']]]));
  });

  it('a function changed since the record in a file this change left alone still counts, and says so', () => {
    // An earlier turn changed sum() (its stop ran the tests that called it); this turn changes only the test file's neighbour.
    const now = new Map([...files, ['/repo/src/math.ts', MATH.replace('a + b', 'b + a')]]);
    const selection = selectByRecord({ record, tests: [...files.keys()].filter(isTest), changed: ['/repo/src/other.ts'], read: (path) => now.get(path), findUnits: jsUnits });
    expect(selection.kept.map(({ test, reason }) => `${test.slice(6)}: ${reason}`)).toEqual(['tests/sum.test.ts: called', 'tests/text.test.ts: called']);
    expect(selection.functions).toEqual(new Map());
    expect(selection.sinceRecord).toEqual(new Map([['/repo/src/math.ts', ['sum']]]));
    expect(narrowWithRecord(record, '/repo', [...files.keys()].filter(isTest), ['/repo/src/other.ts'], (path) => now.get(path), jsUnits)?.why).toBe('2 of 3 test files: 2 executed a function changed since the record (sum() in src/math.ts) (coverage record of 2026-12-04 10:00 UTC)');
  });

  it('keeps every test that loaded a module changed outside its functions', () => {
    const now = new Map([...files, ['/repo/src/math.ts', MATH.replace('RATE = 2', 'RATE = 3')]]);
    expect(reasons(now)).toEqual(['tests/double.test.ts: outside', 'tests/sum.test.ts: outside', 'tests/text.test.ts: names-file']);
  });

  it('keeps a test with no record, or changed since its record', () => {
    const now = new Map([...files, ['/repo/src/math.ts', MATH.replace('x * RATE', 'RATE * x')], ['/repo/tests/sum.test.ts', "import { sum, double } from '../src/math';\n"], ['/repo/tests/new.test.ts', '']]);
    expect(select(now, ['/repo/tests/sum.test.ts', '/repo/tests/new.test.ts']).kept.map((test) => test.reason)).toEqual(['no-record', 'no-record']);
  });

  it("a name V8 reports that the source doesn't hold makes every change in that module count", () => {
    const renamed = addRuns(undefined, [{ kind: 'test', test: '/repo/tests/sum.test.ts', modules: new Map([['/repo/tests/sum.test.ts', new Set<string>()], ['/repo/src/math.ts', new Set(['sum2'])]]) }], (path) => files.get(path), jsUnits, 'now', 'configs');
    expect(renamed.tests['/repo/tests/sum.test.ts']?.loaded['/repo/src/math.ts']?.called).toBe('all');
    const getter = addRuns(undefined, [{ kind: 'test', test: '/repo/tests/sum.test.ts', modules: new Map([['/repo/tests/sum.test.ts', new Set<string>()], ['/repo/src/math.ts', new Set(['sum', 'get'])]]) }], (path) => files.get(path), jsUnits, 'now', 'configs');
    expect(getter.tests['/repo/tests/sum.test.ts']?.loaded['/repo/src/math.ts']?.called).toEqual(['sum']);
  });
});
