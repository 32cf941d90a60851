import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeTestFilter } from '../../src/filters/node-test.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/node-test/${name}.txt`, import.meta.url), 'utf8');
const kept = (name: string) => {
  const result = nodeTestFilter(fixture(name));
  return [...result.items.flat(), ...result.summary].join('\n');
};

describe('node-test filter, spec reporter', () => {
  it('keeps each failing test once, with its suites, where it is declared, the assertion and the values', () => {
    const result = nodeTestFilter(fixture('spec-assertions'));
    expect(result.noun).toBe('failures');
    expect(result.items.map((item) => item[0])).toEqual([
      '✖ sum > adds two numbers (src/sum.test.js:6:3)',
      '✖ sum > with negatives > adds a negative (src/sum.test.js:13:5)',
      '✖ makeUser > builds an admin user (src/sum.test.js:20:3)',
      '✖ makeUser > lists tags (src/sum.test.js:28:3)',
      '✖ bumps a tagged version (src/version.test.js:9:1)',
      '✖ rejects a bad config (src/version.test.js:17:1)',
    ]);
    expect(result.items[1]).toEqual([
      '✖ sum > with negatives > adds a negative (src/sum.test.js:13:5)',
      '  AssertionError [ERR_ASSERTION]: sum(5, -2) should be 3',
      '  4 !== 3',
      '      at TestContext.<anonymous> (/tmp/jsf/tools/nt/basic/src/sum.test.js:14:14)',
      "    code: 'ERR_ASSERTION',",
      '    actual: 4,',
      '    expected: 3,',
      "    operator: 'strictEqual'",
    ]);
    expect(result.summary).toEqual(['ℹ tests 8, suites 3, pass 2, fail 6, cancelled 0, skipped 0, todo 0']);
  });

  it('keeps the object and array diffs', () => {
    const text = kept('spec-assertions');
    expect(text).toContain("  +     city: 'Lyon',\n  -     city: 'Paris',");
    expect(text).toContain("  -     'admin'");
    expect(text).toContain("  -   'gamma',");
    expect(text).toContain("    expected: { id: 1, name: 'ada', roles: [ 'reader', 'admin' ], address: { city: 'Paris', zip: '69001' } },");
    expect(text).toContain('  TypeError [Error]: Invalid Version: v1.2\n      at nextMajor (/tmp/jsf/tools/nt/basic/src/version.test.js:6:10)');
  });

  it('drops passing tests, suite summaries, durations, runtime frames, the repeated failing-tests list', () => {
    const text = kept('spec-assertions');
    for (const noise of ['✔', 'is zero for zeros', 'bumps a plain version', '▶', 'ms)', 'duration_ms', 'node:internal', 'node:async_hooks', '(<anonymous>)', '(index 0)', 'node_modules', 'failing tests:', 'test at', 'generatedMessage', 'file://']) {
      expect(text).not.toContain(noise);
    }
    expect(text.match(/adds two numbers/g)).toHaveLength(1);
  });

  it('keeps a test file that fails to load, with the error Node printed for it', () => {
    const result = nodeTestFilter(fixture('spec-load-error'));
    expect(result.items).toHaveLength(2);
    expect(result.items[0]?.[0]).toBe('✖ /tmp/jsf/tools/nt/load-error/src/missing.test.js (src/missing.test.js:1:1)');
    const text = kept('spec-load-error');
    expect(text).toContain("Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/tmp/jsf/tools/nt/load-error/src/helpers/does-not-exist.js'");
    expect(text).toContain("    code: 'ERR_MODULE_NOT_FOUND',");
    expect(text).toContain('  /tmp/jsf/tools/nt/load-error/src/syntax.test.js:5\n    assert.equal(1, 1;\n  SyntaxError: missing ) after argument list');
    expect(text).not.toMatch(/Node\.js v20|node:internal|ERR_MODULE_NOT_FOUND\($|still passes/m);
  });

  it('gives a structured failure per test, at the failing line in the test file', () => {
    expect(nodeTestFilter(fixture('spec-assertions')).failures[0]).toEqual({
      id: 'src/sum.test.js > sum > adds two numbers',
      file: 'src/sum.test.js',
      line: 7,
      message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      expected: '3',
      received: '4',
    });
    expect(nodeTestFilter(fixture('spec-load-error')).failures[1]).toMatchObject({ id: 'src/syntax.test.js > /tmp/jsf/tools/nt/load-error/src/syntax.test.js', file: 'src/syntax.test.js' });
  });

  it('reads coloured output exactly as plain output', () => {
    const colour = nodeTestFilter(fixture('colour-spec-assertions'));
    const plain = nodeTestFilter(fixture('spec-assertions'));
    expect(colour.items).toEqual(plain.items);
    expect(colour.summary).toEqual(plain.summary);
    expect(kept('colour-spec-assertions')).not.toContain('\x1b');
  });
});

describe('node-test filter, TAP reporter', () => {
  it('keeps each failing test with its suites and the diagnostic, without durations and runtime frames', () => {
    const result = nodeTestFilter(fixture('tap-assertions'));
    expect(result.items.map((item) => item[0])).toEqual([
      'not ok sum > adds two numbers',
      'not ok sum > with negatives > adds a negative',
      'not ok makeUser > builds an admin user',
      'not ok makeUser > lists tags',
      'not ok bumps a tagged version',
      'not ok rejects a bad config',
    ]);
    expect(result.items[0]).toEqual([
      'not ok sum > adds two numbers',
      "  location: '/tmp/jsf/tools/nt/basic/src/sum.test.js:6:3'",
      '  error: |-',
      '    Expected values to be strictly equal:',
      '    4 !== 3',
      "  code: 'ERR_ASSERTION'",
      "  name: 'AssertionError'",
      '  expected: 3',
      '  actual: 4',
      "  operator: 'strictEqual'",
      '  stack: |-',
      '    TestContext.<anonymous> (/tmp/jsf/tools/nt/basic/src/sum.test.js:7:12)',
    ]);
    expect(result.summary).toEqual(['# tests 8, suites 3, pass 2, fail 6, cancelled 0, skipped 0, todo 0']);
  });

  it('keeps a whole diff, even its own "..." line, which looks like the end of the YAML block', () => {
    const item = nodeTestFilter(fixture('tap-assertions')).items[2]?.join('\n') ?? '';
    expect(item).toContain("    +     city: 'Lyon',\n    -     city: 'Paris',");
    expect(item).toContain("    -     'admin'");
    expect(item).toContain("  operator: 'deepStrictEqual'");
  });

  it('drops passing tests, suite summaries, plans and bookkeeping', () => {
    const text = kept('tap-assertions');
    for (const noise of ['TAP version', '# Subtest', 'ok 2 - is zero', 'duration_ms', 'failureType', "type: 'suite'", '1 subtest failed', '1..', 'node:internal', 'node:async_hooks', '(<anonymous>)', 'file://']) {
      expect(text).not.toContain(noise);
    }
  });

  it('keeps a file that fails to load, with the error its process printed as comments', () => {
    const result = nodeTestFilter(fixture('tap-load-error'));
    expect(result.items).toHaveLength(2);
    const text = kept('tap-load-error');
    expect(text).toContain('not ok /tmp/jsf/tools/nt/load-error/src/missing.test.js');
    expect(text).toContain("  Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/tmp/jsf/tools/nt/load-error/src/helpers/does-not-exist.js'");
    expect(text).toContain('  SyntaxError: missing ) after argument list');
    expect(text).not.toMatch(/Node\.js v20|node:internal|still passes|\\#/);
    expect(result.failures[0]).toMatchObject({ file: '/tmp/jsf/tools/nt/load-error/src/missing.test.js', line: 1, message: 'test failed' });
  });

  it('gives a structured failure per test', () => {
    expect(nodeTestFilter(fixture('tap-assertions')).failures[1]).toEqual({
      id: '/tmp/jsf/tools/nt/basic/src/sum.test.js > sum > with negatives > adds a negative',
      file: '/tmp/jsf/tools/nt/basic/src/sum.test.js',
      line: 13,
      message: 'AssertionError: sum(5, -2) should be 3',
      expected: '3',
      received: '4',
    });
  });
});

describe('node-test filter, spec reporter of Node 22 (the error only in the "failing tests" list)', () => {
  it('takes each failure from the list at the end, with where it is declared and its values', () => {
    const result = nodeTestFilter(fixture('spec-node22'));
    expect(result.failures).toEqual([
      { id: 'src/sum.test.js > sum > adds', file: 'src/sum.test.js', line: 7, message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', expected: '3', received: '4' },
    ]);
    expect(result.items).toHaveLength(1);
    expect(kept('spec-node22')).toContain('4 !== 3');
  });
});
