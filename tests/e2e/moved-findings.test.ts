import { afterEach, describe, expect, it } from 'vitest';
import { vitestProject } from '../helpers/fixtures.js';
import { promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { hasTool, toolEnv } from '../helpers/tools.js';

// Issue 26, point 3: a finding is the same finding after an edit above it moved it.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const withTools = (r: TempRepo) => ({ dir: r.dir, env: toolEnv(r.env) as Record<string, string> });
const systemMessage = (stdout: string): string => JSON.parse(stdout).systemMessage;
const gateConfig = (gates: object[]) => `${JSON.stringify({ gates }, null, 2)}\n`;

// Unannotated test code in click's style: the same error twice, and two others.
const TEST_FILE = [
  'from shop import total',
  '',
  '',
  'def test_total() -> None:',
  '    assert total([1, 2]) == "3"',
  '    count: int = "one"',
  '    other: int = "one"',
  '    total("x")',
  '',
].join('\n');
const DOCSTRING = '"""Tests of the shop."""\n\n';

describe.skipIf(!hasTool('mypy'))('mypy: errors moved by an edit above them', () => {
  const project = () => ({
    '.gitignore': '__pycache__/\n.mypy_cache/\n',
    'pyproject.toml': '[project]\nname = "shop"\nversion = "0.1.0"\n\n[tool.mypy]\nstrict = true\n',
    'shop/__init__.py': 'def total(prices: list[int]) -> int:\n    return sum(prices)\n',
    'tests/__init__.py': '',
    'tests/test_shop.py': TEST_FILE,
    'gate.config.json': gateConfig([{ name: 'typecheck', preset: 'mypy' }]),
  });

  it('two lines added at the top: the same errors, lower down, are still the old ones and the stop is allowed', () => {
    repo = makeRepo(project());
    promptStart(withTools(repo));
    repo.write('tests/test_shop.py', DOCSTRING + TEST_FILE);
    const result = stop(withTools(repo));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/typecheck still failing, but only with failures from before this turn/);
  });

  it('a new error below the moved ones blocks, and only it is reported as new', () => {
    repo = makeRepo(project());
    promptStart(withTools(repo));
    repo.write('tests/test_shop.py', `${DOCSTRING + TEST_FILE}\n\ndef test_more() -> None:\n    total(None)\n`);
    const result = stop(withTools(repo));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/tests\/test_shop\.py:\d+: error: Argument 1 to "total" has incompatible type "None"/);
    expect(result.stderr).not.toContain('has incompatible type "str"; expected "list[int]"  [arg-type]\n');
    // The four old errors, moved by the edit, are old: the first named whole, the others counted (issue 42: names are never cut).
    expect(result.stderr).toMatch(/Already failing before this turn \(not caused by this change\): tests\/test_shop\.py [a-z-]+: [^\n]+ and 3 more\./);
  });

  it('one more copy of an old error in the same file is new', () => {
    repo = makeRepo(project());
    promptStart(withTools(repo));
    repo.write('tests/test_shop.py', `${DOCSTRING}${TEST_FILE.replace('    total("x")\n', '    total("x")\n    extra: int = "one"\n')}`);
    const result = stop(withTools(repo));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/tests\/test_shop\.py:11: error: Incompatible types in assignment \(expression has type "str", variable has type "int"\)/);
  });
});

describe('tsc: errors moved by an edit above them', () => {
  const BROKEN = "export const count: number = 'one';\nexport function twice(n: number): number {\n  return n * 2;\n}\nexport const bad = twice('2');\n";
  const project = () => ({ ...vitestProject({ gates: [{ name: 'typecheck', preset: 'tsc' }] }), 'src/broken.ts': BROKEN });

  it('two lines added at the top: the stop is allowed as pre-existing only', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    // Two lines of code: comments alone would not run the typecheck (they cannot change its verdict).
    repo.write('src/broken.ts', `export const note = 'broken on purpose';\nexport const issue = 26;\n${BROKEN}`);
    const result = stop(repo);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/typecheck still failing, but only with failures from before this turn/);
  });

  it('a new error blocks', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/broken.ts', `// Broken on purpose.\n${BROKEN}export const worse: string = 2;\n`);
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("src/broken.ts(7,14): error TS2322: Type 'number' is not assignable to type 'string'.");
  });
});
