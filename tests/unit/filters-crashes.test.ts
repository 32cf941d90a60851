import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { filterOutput, LAST_LINES } from '../../src/filters/filter-output.js';
import { genericFilter } from '../../src/filters/generic.js';
import { fitFiltered } from '../../src/report/render-report.js';

// Issue 30 point 2: a runner that died before testing anything is reported by its own error.
// Each in its tool's folder of tests/fixtures/outputs/, named crash-*.txt (the README there says how it was made).
const outputs = new URL('../fixtures/outputs/', import.meta.url);
const FILTERS = ['pytest', 'vitest', 'jest', 'mocha', 'node-test', 'go-test', 'cargo-test', 'mypy', 'tsc', 'eslint', 'ruff'];
const fixture = (path: string) => readFileSync(new URL(path, outputs), 'utf8');
const filterOf = (path: string) => path.split('/')[0] ?? 'generic';
/** What `gate filter --filter ID` prints: what the agent reads of that gate. */
const shown = (id: string, raw: string) => fitFiltered(filterOutput(id, raw), 6000).join('\n');

// For each capture, the lines the agent needs: the error, its message, the user's frames.
const KEPT: Record<string, string[]> = {
  'pytest/crash-conftest-import.txt': ["ImportError while loading conftest '/tmp/cap30/p1/conftest.py'.", 'conftest.py:1: in <module>', '    import shop_missing', "E   ModuleNotFoundError: No module named 'shop_missing'"],
  'pytest/crash-plugin-import.txt': ["ModuleNotFoundError: No module named 'shop'", 'ImportError: Error importing plugin "shop.plugin": No module named \'shop\''],
  'pytest/crash-plugin-raises.txt': ['  File "/tmp/cap30/p2/shop/plugin.py", line 1, in <module>', '  File "/tmp/cap30/p2/shop/db.py", line 3, in <module>', '    URL = os.environ["DATABASE_URL"]', "KeyError: 'DATABASE_URL'"],
  'vitest/crash-config-throws.txt': ['failed to load config from /tmp/cap30/v1/vitest.config.ts', 'Error: API_URL must be set for the tests'],
  'vitest/crash-setup-throws.txt': ['Error: API_URL must be set for the tests', '❯ setup.ts:2:1'],
  'jest/crash-missing-setup.txt': ['Module ./setup.js in the setupFiles option was not found.', 'Unknown option "testEnviroment" with value "node" was found. Did you mean "testEnvironment"?'],
  'jest/crash-config-throws.txt': ["Error: Cannot find module './jest.base.js'", 'at Object.<anonymous> (/tmp/cap30/j1/jest.config.js:1:14)'],
  'mocha/crash-setup-throws.txt': ['✖ ERROR: Error: connect ECONNREFUSED 127.0.0.1:5432', 'at connect (file:///tmp/cap30/mo1/src/db.js:2:9)'],
  'node-test/crash-syntax-error.txt': ['SyntaxError: missing ) after argument list', '/tmp/cap30/n1/src/cart.js:1'],
  'go-test/crash-module-missing.txt': ['app.go:3:8: example.com/lib@v0.0.0: module lookup disabled by GOPROXY=off'],
  'go-test/crash-test-compile.txt': ['./app_test.go:6:16: invalid operation: Total() != "2" (mismatched types int and untyped string)'],
  'go-test/crash-init-panic.txt': ['panic: missing DATABASE_URL', '/tmp/cap30/g1/env.go:10'],
  'cargo-test/crash-edition-error.txt': ['error[E0670]: `async fn` is not permitted in Rust 2015', ' --> src/lib.rs:5:5'],
  'cargo-test/crash-offline-dependency.txt': ['error: no matching package named `serde` found'],
  'mypy/crash-plugin-missing.txt': ['pyproject.toml:1: error: Error importing plugin "shop.mypy_plugin": No module named \'shop\'  [misc]'],
  'mypy/crash-plugin-raises.txt': ['Error calling the plugin(version) entry point of shop.mypy_plugin', 'error: INTERNAL ERROR -- Please try using mypy master on GitHub:'],
  'mypy/crash-config-error.txt': ['mypy: error: Mypy no longer supports checking Python 2 code. Consider pinning to mypy<0.980 if you need to check Python 2 code.'],
  'tsc/crash-config-error.txt': ["tsconfig.json(1,14): error TS6053: File '@acme/tsconfig/base.json' not found."],
  'eslint/crash-config-import.txt': ["Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@acme/eslint-config' imported from /tmp/cap30/e1/eslint.config.js"],
  'ruff/crash-config-error.txt': ['Cause: Failed to parse /tmp/cap30/r1/pyproject.toml', 'invalid type: string "E", expected a sequence'],
};

describe('a crashed runner keeps its own error', () => {
  const files = FILTERS.flatMap((id) => readdirSync(new URL(`${id}/`, outputs)).filter((file) => /^crash-.*\.txt$/.test(file)).map((file) => `${id}/${file}`));

  it('every capture has its expectations, every filter has a capture', () => {
    expect(files.sort()).toEqual(Object.keys(KEPT).sort());
    expect(new Set(files.map(filterOf))).toEqual(new Set(FILTERS));
  });

  it.each(files)('%s: the error, its message and the user frames', (file) => {
    const text = shown(filterOf(file), fixture(file));
    for (const line of KEPT[file] ?? []) expect(text.split('\n').map((kept) => kept.trim())).toContain(line.trim());
  });

  it.each(files)('%s: a filter that names no failure keeps at least the tool\'s own last lines', (file) => {
    const filtered = filterOutput(filterOf(file), fixture(file));
    if (filtered.failures.length > 0) return;
    const generic = genericFilter(fixture(file));
    const last = [...generic.items.flat(), ...generic.summary].filter((line) => /[A-Za-z0-9]/.test(line)).slice(-LAST_LINES);
    const text = shown(filterOf(file), fixture(file)).split('\n').map((line) => line.trim());
    for (const line of last) expect(text).toContain(line.trim());
  });

  it('pytest dying at startup (the issue\'s report): the exception stays, the console script\'s frame goes', () => {
    const raw = 'Traceback (most recent call last):\n  File "/usr/bin/pytest", line 8, in <module>\n    sys.exit(console_main())\nModuleNotFoundError: No module named x\n';
    expect(shown('pytest', raw)).toBe('Traceback (most recent call last):\nModuleNotFoundError: No module named x');
  });

  it('pytest\'s plugin traceback keeps the user frames, not the 40 of pytest, pluggy and importlib', () => {
    const text = shown('pytest', fixture('pytest/crash-plugin-raises.txt'));
    expect(text).not.toMatch(/site-packages|<frozen|\.cache\/tools\/py\/bin\/pytest/);
    expect(text.split('\n').length).toBeLessThanOrEqual(8);
  });
});
