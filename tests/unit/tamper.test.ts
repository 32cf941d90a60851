import { describe, expect, it } from 'vitest';
import { isTestPath, priorityOf } from '../../src/tamper/classify-path.js';
import { describeTampering } from '../../src/tamper/describe-tampering.js';
import { describeGateConfigChange } from '../../src/tamper/gate-config-change.js';
import { keyChain } from '../../src/tamper/key-chain.js';
import { headerPath, parseDiff } from '../../src/tamper/parse-diff.js';
import { scanChanges } from '../../src/tamper/scan-changes.js';
import type { FileChange, TamperFinding } from '../../src/tamper/tamper-finding.js';
import { codeLines } from '../../src/tamper/test-declarations.js';

/** A file edited since the baseline: `added` lines numbered from 1 unless `current` places them. */
function edited(path: string, added: string[], removed: string[] = [], extra: Partial<FileChange> = {}): FileChange {
  return {
    path,
    added: added.map((text, index) => ({ line: index + 1, text })),
    removed,
    deleted: false,
    created: false,
    baselineKnown: true,
    current: added.join('\n'),
    ...extra,
  };
}

const found = (changes: FileChange[]) => scanChanges(changes).map(({ path, line, kind, detail }) => ({ path, line, kind, detail }));
const details = (path: string, line: string) => scanChanges([edited(path, [line])]).map((finding) => `${finding.kind}: ${finding.detail}`);

describe('parseDiff', () => {
  it('reads added lines with their line numbers in the current file, and removed lines', () => {
    const diff = [
      'diff --git a/src/sum.test.ts b/src/sum.test.ts',
      'index 1111111..2222222 100644',
      '--- a/src/sum.test.ts',
      '+++ b/src/sum.test.ts',
      '@@ -3 +3 @@ describe(',
      "-  it('adds', () => {",
      "+  it.skip('adds', () => {",
      '@@ -10,0 +11,2 @@',
      '+  // one',
      '+  // two',
      '@@ -20,2 +22,0 @@',
      '-gone',
      '-gone too',
      '',
    ].join('\n');
    expect(parseDiff(diff)).toEqual([
      {
        path: 'src/sum.test.ts',
        created: false,
        deleted: false,
        binary: false,
        added: [
          { line: 3, text: "  it.skip('adds', () => {" },
          { line: 11, text: '  // one' },
          { line: 12, text: '  // two' },
        ],
        removed: ["  it('adds', () => {", 'gone', 'gone too'],
        removedBefore: [3, 23, 23],
      },
    ]);
  });

  it('takes lines that look like headers inside a hunk for content, by the hunk counts', () => {
    const diff = ['diff --git a/a.sql b/a.sql', '--- a/a.sql', '+++ b/a.sql', '@@ -1 +1,2 @@', '--- a comment', '++++ plus', '+diff --git a/x b/x'].join('\n');
    const [file] = parseDiff(diff);
    expect(file?.removed).toEqual(['-- a comment']);
    expect(file?.added.map((line) => line.text)).toEqual(['+++ plus', 'diff --git a/x b/x']);
  });

  it('knows new, deleted and binary files, and skips "No newline" markers and CR', () => {
    const diff = [
      'diff --git a/new.ts b/new.ts',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new.ts',
      '@@ -0,0 +1 @@',
      '+fit(\'x\')\r',
      '\\ No newline at end of file',
      'diff --git a/old.test.ts b/old.test.ts',
      'deleted file mode 100644',
      '--- a/old.test.ts',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      "-test('x', () => {})",
      'diff --git a/logo.png b/logo.png',
      'Binary files a/logo.png and b/logo.png differ',
    ].join('\n');
    const files = parseDiff(diff);
    expect(files.map((file) => [file.path, file.created, file.deleted, file.binary])).toEqual([
      ['new.ts', true, false, false],
      ['old.test.ts', false, true, false],
      ['logo.png', false, false, true],
    ]);
    expect(files[0]?.added).toEqual([{ line: 1, text: "fit('x')" }]);
  });

  it('counts context lines when hunks carry some', () => {
    const diff = ['diff --git a/a.ts b/a.ts', '@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ' three'].join('\n');
    expect(parseDiff(diff)[0]?.added).toEqual([{ line: 2, text: 'TWO' }]);
  });

  it('skips combined diffs of unmerged paths', () => {
    const diff = ['diff --cc a.ts', '@@@ -1,1 -1,1 +1,1 @@@', '++it.only(', 'diff --git a/b.ts b/b.ts', '@@ -0,0 +1 @@', '+b'].join('\n');
    expect(parseDiff(diff).map((file) => file.path)).toEqual(['b.ts']);
  });

  it('reads the path from the header, spaces and C-quoted names included', () => {
    expect(headerPath('a/tests/my file.test.ts b/tests/my file.test.ts')).toBe('tests/my file.test.ts');
    expect(headerPath('"a/tests/\\303\\251t\\303\\251.test.ts" "b/tests/\\303\\251t\\303\\251.test.ts"')).toBe('tests/été.test.ts');
    expect(headerPath('"a/say \\"hi\\"\\t.ts" "b/say \\"hi\\"\\t.ts"')).toBe('say "hi"\t.ts');
    expect(headerPath('a/one.ts b/two.ts')).toBeUndefined();
    expect(headerPath('"a/broken')).toBeUndefined();
  });

  it('never throws on garbage', () => {
    expect(parseDiff('@@ -1 +1 @@\n+x\n\0\0\ndiff --git\n@@ nonsense')).toEqual([]);
  });
});

describe('which paths are tests', () => {
  it.each([
    'src/sum.test.ts', 'src/sum.spec.tsx', 'tests/helpers/setup.ts', 'pkg/__tests__/a.js', 'test_sum.py', 'sum_test.py',
    'pkg/sum_test.go', 'src/test/java/app/SumTest.java', 'app/src/test/kotlin/SumTests.kt', 'spec/models/user_spec.rb', 'conftest.py',
  ])('%s is a test', (path) => expect(isTestPath(path)).toBe(true));

  it.each(['src/sum.ts', 'src/latest.ts', 'src/contest.py', 'src/testing.go', 'docs/EDIT.java', 'testdata/in.txt'])('%s is not', (path) =>
    expect(isTestPath(path)).toBe(false),
  );

  it('leaves lockfiles and unknown files out', () => {
    expect(priorityOf('package-lock.json')).toBeUndefined();
    expect(priorityOf('assets/logo.png')).toBeUndefined();
    expect(priorityOf('gate.config.json')).toBe(0);
  });
});

describe('skipped, focused and todo tests in added lines', () => {
  it.each([
    ['src/a.test.ts', "  it.skip('adds', () => {", 'skip: adds it.skip('],
    ['src/a.test.ts', 'describe.skip.each([1, 2])(', 'skip: adds describe.skip.each('],
    ['src/a.test.ts', "it.skipIf(process.env.CI)('x', () => {", 'skip: adds it.skipIf('],
    ['src/a.test.ts', "it.fails('x', () => {", 'skip: adds it.fails('],
    ['src/a.spec.js', "xit('works', function () {", 'skip: adds xit('],
    ['src/a.spec.js', "xdescribe('suite', () => {", 'skip: adds xdescribe('],
    ['src/a.spec.js', '    this.skip();', 'skip: adds this.skip('],
    ['test/a.test.mjs', "test('x', { skip: true }, () => {", 'skip: adds { skip: … } to a test'],
    ['test/a.test.mjs', "  t.skip('later');", 'skip: adds t.skip('],
    ['src/a.test.ts', "it.only('adds', () => {", 'only: adds it.only('],
    ['src/a.test.ts', 'describe.only(`suite`, () => {', 'only: adds describe.only('],
    ['src/a.spec.ts', "fit('x', () => {", 'only: adds fit('],
    ['src/a.spec.ts', "fdescribe('x', () => {", 'only: adds fdescribe('],
    ['src/a.test.ts', "test.todo('handles overflow')", 'todo: adds test.todo('],
    ['src/a.test.ts', "it.todo('x')", 'todo: adds it.todo('],
    ['tests/test_sum.py', '@pytest.mark.skip(reason="later")', 'skip: adds @pytest.mark.skip'],
    ['tests/test_sum.py', '@pytest.mark.skipif(sys.platform == "win32", reason="x")', 'skip: adds @pytest.mark.skipif'],
    ['tests/test_sum.py', '@pytest.mark.xfail', 'skip: adds @pytest.mark.xfail'],
    ['tests/test_sum.py', '    pytest.skip("broken")', 'skip: adds pytest.skip('],
    ['tests/test_sum.py', '@unittest.skip("x")', 'skip: adds @unittest.skip'],
    ['pkg/sum_test.go', '\tt.Skip("flaky")', 'skip: adds t.Skip('],
    ['pkg/sum_test.go', '\tt.SkipNow()', 'skip: adds t.SkipNow('],
    ['src/lib.rs', '    #[ignore]', 'skip: adds #[ignore]'],
    ['src/test/java/SumTest.java', '  @Disabled("later")', 'skip: adds @Disabled'],
    ['src/test/kotlin/SumTest.kt', '  @Ignore', 'skip: adds @Ignore'],
  ])('%s: %s', (path, line, expected) => {
    expect(details(path, line)).toEqual([expected]);
  });

  it.each([
    ['src/list.ts', 'return items.skip(3).only(2);', 'not a test file'],
    ['src/a.test.ts', '// remember: it.skip( is not allowed', 'a comment'],
    ['src/a.test.ts', "it('fits the profit(x) margin', () => {", 'words that merely contain fit('],
    ['src/a.test.ts', 'const page = await db.find({ skip: 10 });', 'skip as a number option'],
    ['tests/test_sum.py', '# @pytest.mark.skip', 'a commented marker'],
    ['pkg/sum.go', '\tt.Skip("x")', 'Go code outside _test.go'],
    ['src/main/java/Sum.java', '@Ignore', 'Java code outside the tests'],
    ['src/a.test.ts', "it('works', () => {", 'an ordinary test'],
  ])('%s: %s is not flagged (%s)', (path, line) => {
    expect(details(path, line)).toEqual([]);
  });
});

describe('weakened checks in added lines', () => {
  it.each([
    ['package.json', '    "test": "vitest run --passWithNoTests",', 'weakened-check: adds --passWithNoTests'],
    ['vitest.config.ts', '    passWithNoTests: true,', 'weakened-check: sets passWithNoTests: true'],
    ['src/sum.ts', '// eslint-disable-next-line @typescript-eslint/no-explicit-any', 'weakened-check: adds an eslint-disable comment'],
    ['src/sum.ts', '/* eslint-disable */', 'weakened-check: adds an eslint-disable comment'],
    ['src/sum.ts', '  // @ts-ignore', 'weakened-check: adds @ts-ignore'],
    ['src/sum.ts', '// @ts-nocheck', 'weakened-check: adds @ts-nocheck'],
    ['src/sum.test.ts', '  // @ts-expect-error wrong on purpose', 'weakened-check: adds @ts-expect-error'],
    ['src/sum.ts', '  // biome-ignore lint/suspicious/noExplicitAny: x', 'weakened-check: adds a biome-ignore comment'],
    ['app/sum.py', 'import os  # noqa: F401', 'weakened-check: adds # noqa'],
    ['app/sum.py', 'x: int = "a"  # type: ignore[assignment]', 'weakened-check: adds # type: ignore'],
    ['pkg/sum.go', 'func f() { //nolint:errcheck', 'weakened-check: adds a //nolint comment'],
    ['pkg/sum_test.go', '//go:build ignore', 'weakened-check: adds //go:build ignore (the file is no longer built or tested)'],
    ['src/lib.rs', '#[allow(dead_code)]', 'weakened-check: adds #[allow(dead_code)]'],
    ['src/lib.rs', '#![allow(clippy::all)]', 'weakened-check: adds #[allow(clippy::all)]'],
    ['pytest.ini', 'addopts = -k "not slow_and_broken"', 'weakened-check: adds -k "not …" (deselects tests)'],
    ['.github/workflows/ci.yml', '      - run: pytest --ignore=tests/test_sum.py', 'weakened-check: adds --ignore'],
    ['Makefile', '\tnpm test || true', 'weakened-check: makes a check always succeed (|| true)'],
    ['package.json', '    "lint": "ruff check --exit-zero .",', 'weakened-check: adds --exit-zero'],
    ['package.json', '    "lint": "eslint --max-warnings 50 .",', 'weakened-check: allows lint warnings (--max-warnings 50)'],
    ['.claude/settings.json', '    "GATE": "0"', 'gate-config: sets GATE=0 (turns gate off)'],
    ['.envrc', 'export GATE_SKIP=test', 'gate-config: sets GATE_SKIP'],
  ])('%s: %s', (path, line, expected) => {
    expect(details(path, line)).toContain(expected);
  });

  it.each([
    ['src/rules.ts', "const marker = 'eslint-disable';", 'the word in a string, not a comment'],
    ['Makefile', '\trm -rf build || true', 'a cleanup command'],
    ['package.json', '    "postinstall": "npm install --ignore-scripts"', 'a flag that only starts like --ignore'],
    ['package.json', '    "lint": "eslint --max-warnings 0 ."', 'max-warnings 0'],
    ['tsconfig.json', '    "skipLibCheck": true,', 'skipLibCheck (checks only .d.ts files of dependencies)'],
    ['docs/guide.md', 'run `vitest --passWithNoTests`', 'documentation'],
    ['app/sum.py', '# pragma: no cover', 'coverage pragma'],
  ])('%s: %s is not flagged (%s)', (path, line) => {
    expect(details(path, line)).toEqual([]);
  });
});

describe('weakened checks in config files, by the keys around the line', () => {
  const config = (path: string, text: string, changed: number[]) => {
    const lines = text.split('\n');
    return edited(path, [], [], { current: text, added: changed.map((line) => ({ line, text: lines[line - 1] ?? '' })) });
  };

  it('an entry added to vitest test.exclude, not to coverage.exclude or optimizeDeps.exclude', () => {
    const text = [
      "import { defineConfig } from 'vitest/config';",
      'export default defineConfig({',
      '  optimizeDeps: {',
      "    exclude: ['dep'],",
      '  },',
      '  test: {',
      '    exclude: [',
      "      '**/node_modules/**',",
      "      'src/broken.test.ts',",
      '    ],',
      "    coverage: { exclude: ['src/gen/**'] },",
      '  },',
      '});',
    ].join('\n');
    expect(found([config('vitest.config.ts', text, [4, 9, 11])])).toEqual([
      { path: 'vitest.config.ts', line: 9, kind: 'weakened-check', detail: 'excludes test files (vitest exclude)' },
    ]);
  });

  it('testPathIgnorePatterns in package.json, strict off and exclude in tsconfig, a lint rule off', () => {
    const pkg = ['{', '  "jest": {', '    "testPathIgnorePatterns": [', '      "/node_modules/",', '      "sum"', '    ]', '  }', '}'].join('\n');
    const ts = ['{', '  "compilerOptions": {', '    "strict": false,', '    "noImplicitAny": false', '  },', '  "exclude": ["src/broken.ts"]', '}'].join('\n');
    const eslint = ['export default [', '  {', '    rules: {', "      'no-unused-vars': 'off',", "      eqeqeq: ['off'],", "      'max-len': 0,", '    },', "    ignores: ['src/legacy/**'],", '  },', '];'].join('\n');
    expect(found([config('package.json', pkg, [5]), config('tsconfig.json', ts, [3, 4, 6]), config('eslint.config.js', eslint, [4, 5, 6, 8])])).toEqual([
      { path: 'eslint.config.js', line: 4, kind: 'weakened-check', detail: 'turns off the lint rule no-unused-vars' },
      { path: 'eslint.config.js', line: 5, kind: 'weakened-check', detail: 'turns off the lint rule eqeqeq' },
      { path: 'eslint.config.js', line: 6, kind: 'weakened-check', detail: 'turns off the lint rule max-len' },
      { path: 'eslint.config.js', line: 8, kind: 'weakened-check', detail: 'adds a lint ignore pattern' },
      { path: 'package.json', line: 5, kind: 'weakened-check', detail: 'adds to testPathIgnorePatterns in the test runner config' },
      { path: 'tsconfig.json', line: 3, kind: 'weakened-check', detail: 'sets strict to false' },
      { path: 'tsconfig.json', line: 4, kind: 'weakened-check', detail: 'sets noImplicitAny to false' },
      { path: 'tsconfig.json', line: 6, kind: 'weakened-check', detail: 'excludes files from the typecheck' },
    ]);
  });

  it('ruff ignores in pyproject.toml, but not a packaging exclude; a test script made a no-op', () => {
    const pyproject = ['[tool.setuptools.packages.find]', 'exclude = ["tests"]', '', '[tool.ruff.lint]', 'select = ["E"]', 'ignore = [', '    "E501",', ']'].join('\n');
    const pkg = ['{', '  "scripts": {', '    "test": "echo ok",', '    "build": "echo building"', '  }', '}'].join('\n');
    expect(found([config('pyproject.toml', pyproject, [2, 7]), config('package.json', pkg, [3, 4])])).toEqual([
      { path: 'package.json', line: 3, kind: 'weakened-check', detail: 'makes the test script a no-op' },
      { path: 'pyproject.toml', line: 7, kind: 'weakened-check', detail: 'adds to ignore in the lint config' },
    ]);
  });

  it('keyChain follows indentation, YAML list items and TOML sections', () => {
    const yaml = ['linters:', '  disable:', '  - errcheck', '  enable:', '    - govet'];
    expect(keyChain(yaml, 2, false)).toEqual({ own: [], parents: ['disable', 'linters'] });
    expect(keyChain(yaml, 4, false)).toEqual({ own: [], parents: ['enable', 'linters'] });
    const toml = ['[tool.ruff]', 'line-length = 100', 'extend-ignore = [', '  "E501",', ']'];
    expect(keyChain(toml, 3, true)).toEqual({ own: [], parents: ['extend-ignore', 'tool.ruff'] });
    expect(keyChain(['{"jest":{"testPathIgnorePatterns":["x"]}}'], 0, false).own).toEqual(['testPathIgnorePatterns', 'jest']);
  });
});

describe('deleted, emptied and moved tests', () => {
  const gone = (path: string, removed: string[], baselineKnown = true): FileChange => ({
    path, added: [], removed, deleted: true, created: false, baselineKnown, current: undefined,
  });

  it('a deleted test file is named; a deleted helper without tests is not', () => {
    expect(found([gone('src/sum.test.ts', ["it('adds', () => {", '});']), gone('tests/helpers/make.ts', ['export const make = 1;'])])).toEqual([
      { path: 'src/sum.test.ts', line: undefined, kind: 'deleted-test', detail: 'deletes the test file' },
    ]);
  });

  it('a test file deleted whose content is unknown counts when it is code named like a test', () => {
    expect(found([gone('tests/a.test.ts', [], false), gone('tests/fixtures/data.json', [], false)]).map((f) => f.path)).toEqual(['tests/a.test.ts']);
  });

  it('a renamed test file is neither deleted nor does it bring new skips', () => {
    const body = ["describe('sum', () => {", "  it.skip('old skip', () => {});", "  it('adds', () => {});", '});'];
    expect(found([gone('src/sum.test.ts', body), edited('src/math/sum.test.ts', body, [], { created: true, baselineKnown: false })])).toEqual([]);
  });

  it('a test file left with no test is emptied, also when its tests are commented out', () => {
    const removed = ["it('adds', () => {", '  expect(sum(1, 2)).toBe(3);', '});'];
    expect(found([edited('src/sum.test.ts', ["import { sum } from './sum';"], removed, { current: "import { sum } from './sum';\n" })])).toEqual([
      { path: 'src/sum.test.ts', line: undefined, kind: 'emptied-test', detail: 'removes every test from the file' },
    ]);
    const commented = ["// it('adds', () => {", '//   expect(sum(1, 2)).toBe(3);', '// });'];
    const findings = found([edited('src/sum.test.ts', commented, removed)]);
    expect(findings).toContainEqual({ path: 'src/sum.test.ts', line: 1, kind: 'skip', detail: 'comments out a test' });
    expect(findings).toContainEqual({ path: 'src/sum.test.ts', line: undefined, kind: 'emptied-test', detail: 'removes every test from the file' });
    // git shows only the two added comment markers; the tests in between are unchanged lines.
    const wrapped = edited('src/sum.test.ts', [], [], { current: ['/*', ...removed, '*/'].join('\n'), added: [{ line: 1, text: '/*' }, { line: 5, text: '*/' }] });
    expect(found([wrapped]).map((f) => f.kind)).toEqual(['emptied-test']);
  });

  it('a test file that keeps some tests, or whose tests moved to another file, is not emptied', () => {
    const removed = ["it('adds', () => {", '});'];
    expect(found([edited('src/sum.test.ts', [], removed, { current: "it('subtracts', () => {});\n" })])).toEqual([]);
    expect(found([edited('src/sum.test.ts', [], removed, { current: '' }), edited('src/add.test.ts', removed)])).toEqual([]);
  });

  it('globs in strings do not open a block comment', () => {
    expect(codeLines("const files = ['**/*.test.ts'];\nit('x', () => {});")).toHaveLength(2);
  });
});

describe("gate's own config and hook", () => {
  it('says what changed in gate.config.json', () => {
    const change = edited('gate.config.json', ['  "maxBlocks": 50,', '  "tamper": "off",'], ['  "maxBlocks": 3,', '    { "name": "test", "preset": "vitest" },'], {
      current: '{\n  "maxBlocks": 50,\n  "tamper": "off",\n  "gates": [{ "name": "lint", "run": "eslint ." }]\n}\n',
    });
    expect(describeGateConfigChange(change)).toBe('changes gate.config.json: removes the gate "test", raises maxBlocks from 3 to 50, sets tamper to "off"');
    expect(describeGateConfigChange(edited('pkg/gate.config.json', ['  "budget": 9000'], ['  "budget": 6000']))).toBe('changes gate.config.json');
    expect(describeGateConfigChange({ ...change, deleted: true })).toBe('deletes gate.config.json');
  });

  it('reports gate.config.json once, and the hook taken out of .claude/settings.json', () => {
    const hook = edited('.claude/settings.json', ['  "hooks": {}'], ['        { "type": "command", "command": "npx gate hook" }']);
    expect(found([edited('gate.config.json', ['  "run": "vitest run --passWithNoTests"'], ['  "run": "vitest run"']), hook])).toEqual([
      { path: '.claude/settings.json', line: undefined, kind: 'gate-config', detail: 'changes the gate hook in .claude/settings.json' },
      { path: 'gate.config.json', line: undefined, kind: 'gate-config', detail: 'changes gate.config.json: changes a gate command' },
      { path: 'gate.config.json', line: 1, kind: 'weakened-check', detail: 'adds --passWithNoTests' },
    ]);
    expect(found([edited('.claude/settings.json', ['  "model": "x"'], ['  "model": "y"'])])).toEqual([]);
  });
});

describe('bounds', () => {
  it('reads a megabyte-long minified line in linear time', () => {
    for (const [path, text] of [['eslint.config.js', '"a": '.repeat(200_000)], ['src/a.test.ts', 'a.'.repeat(500_000)], ['package.json', '-'.repeat(1_000_000)]] as const) {
      const started = performance.now();
      scanChanges([edited(path, [text])]);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it('names a hook file deleted, and a gate config created', () => {
    const gone: FileChange = { path: '.claude/settings.json', added: [], removed: ['{ "command": "npx gate hook" }'], deleted: true, created: false, baselineKnown: true, current: undefined };
    expect(found([gone, edited('gate.config.json', ['{}'], [], { created: true })]).map((finding) => finding.detail)).toEqual([
      'deletes .claude/settings.json, which runs gate',
      'creates gate.config.json',
    ]);
  });
});

describe('describeTampering', () => {
  const finding = (index: number): TamperFinding => ({ path: `tests/t${index}.test.ts`, line: index, kind: 'skip', detail: 'adds it.skip(' });

  it('one plain line per finding, then a count of the rest', () => {
    expect(describeTampering([finding(1), { path: 'old.test.ts', kind: 'deleted-test', detail: 'deletes the test file' }])).toEqual([
      'tests/t1.test.ts:1: adds it.skip(',
      'old.test.ts: deletes the test file',
    ]);
    const many = Array.from({ length: 14 }, (_, index) => finding(index + 1));
    const lines = describeTampering(many);
    expect(lines).toHaveLength(11);
    expect(lines[10]).toBe('… 4 more');
    expect(describeTampering(many, 2)).toEqual(['tests/t1.test.ts:1: adds it.skip(', 'tests/t2.test.ts:2: adds it.skip(', '… 12 more']);
  });

  it('keeps lines short and free of control characters', () => {
    const [line] = describeTampering([{ path: `${'x'.repeat(300)}\n\u001b[31m.test.ts`, kind: 'deleted-test', detail: 'deletes the test file' }]);
    expect(line).toHaveLength(200);
    expect(line).not.toMatch(/[\u0000-\u001f]/);
  });

  it('finds nothing in an ordinary source edit, and repeats nothing', () => {
    expect(found([edited('src/sum.ts', ['export const sum = (a: number, b: number) => a + b;'], ['export const sum = (a, b) => a - b;'])])).toEqual([]);
    const twice = found([edited('src/sum.ts', ['// eslint-disable-next-line', 'x();', '// eslint-disable-next-line'])]);
    expect(twice).toEqual([{ path: 'src/sum.ts', line: 1, kind: 'weakened-check', detail: 'adds an eslint-disable comment' }]);
  });
});
