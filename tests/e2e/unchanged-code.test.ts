// A change that leaves the code the tests run the same — comments, formatting, types — runs no test
// (issue 39 point 1), and a change in comments and layout only runs no typecheck either; a type
// change still runs the typecheck, a test that reads the changed file as text still runs, and a
// change in code still runs its tests. Real stops of the built bin, real vitest, tsc, pytest.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTools } from '../helpers/fast-tier.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { copyRepo, makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';

const logOf = (repo: TempRepo, gate: string) => join(repo.dir, '.git', 'gate', 'logs', `${gate}.log`);
const lastStopGates = (repo: TempRepo) => (JSON.parse(runBin(['log', '--json'], { cwd: repo.dir, env: repo.env }).stdout) as Array<{ gates: Array<{ name: string; status: string }> }>).at(-1)?.gates;
const statusGates = (repo: TempRepo) => (JSON.parse(runBin(['status', '--json'], { cwd: repo.dir, env: repo.env }).stdout) as { gates: Array<{ name: string; runs: boolean; reason: string; command?: string }> }).gates;

const GREET = 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n';
const GREET_COMMENTED = '/** Greets someone by name. */\nexport function greet(\n  name: string, // who\n): string {\n  return `hello ${name}`;\n}\n';
// A trailing comma is a token to the type checker (after a rest parameter it is an error): comments and line breaks only.
const GREET_COMMENTS_ONLY = GREET_COMMENTED.replace('name: string, // who', 'name: string // who');

describe('vitest and tsc: a change in comments, formatting or types only', () => {
  let start: TempRepo;
  const repos: TempRepo[] = [];
  beforeAll(() => {
    start = makeRepo(
      {
        '.gitignore': 'node_modules\n',
        'package.json': `${JSON.stringify({ name: 'shop', private: true, type: 'module' }, null, 2)}\n`,
        'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true, skipLibCheck: true }, include: ['src', 'tests'] }, null, 2)}\n`,
        'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', preset: 'vitest' }, { name: 'types', preset: 'tsc' }] }, null, 2)}\n`,
        'src/greet.ts': GREET,
        'src/money.ts': 'export const cents = (amount: number): number => Math.round(amount * 100);\n',
        'tests/greet.test.ts': "import { expect, test } from 'vitest';\nimport { greet } from '../src/greet';\n\ntest('greet greets', () => {\n  expect(greet('ann')).toBe('hello ann');\n});\n",
        // A test that reads a source file as text sees its comments too.
        'tests/money-source.test.ts':
          "import { readFileSync } from 'node:fs';\nimport { expect, test } from 'vitest';\n\ntest('money.ts has no TODO left', () => {\n  expect(readFileSync('src/money.ts', 'utf8')).not.toContain('TODO');\n});\n",
      },
      { nodeModules: true },
    );
  });
  afterAll(() => {
    for (const repo of [start, ...repos]) repo?.cleanup();
  });
  const fresh = () => {
    const repo = copyRepo(start);
    repos.push(repo);
    promptStart(repo);
    return repo;
  };

  it('runs neither the tests nor the typecheck for comments and layout, and lets the stop through', () => {
    const repo = fresh();
    repo.write('src/greet.ts', GREET_COMMENTS_ONLY);
    const gates = statusGates(repo);
    expect(gates.find((gate) => gate.name === 'test')).toMatchObject({ runs: false, reason: 'src/greet.ts changed in comments, formatting or types only: no code its tests run changed' });
    expect(gates.find((gate) => gate.name === 'types')).toMatchObject({ runs: false, reason: 'src/greet.ts changed in comments or layout only: the type checker reads the same code' });
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(existsSync(logOf(repo, 'test'))).toBe(false);
    expect(existsSync(logOf(repo, 'types'))).toBe(false);
    expect(lastStopGates(repo)).toEqual([]);
  });

  it('runs the typecheck, not the tests, for a change in types only, and blocks on a type error', () => {
    const repo = fresh();
    repo.write('src/greet.ts', GREET_COMMENTED.replace('): string {', '): number {'));
    expect(statusGates(repo).find((gate) => gate.name === 'test')?.runs).toBe(false);
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('types');
    expect(existsSync(logOf(repo, 'test'))).toBe(false);
    // A `@ts-ignore` is a comment the type checker reads: adding one runs it (and here it passes).
    repo.write('src/greet.ts', GREET.replace('  return', '  // @ts-ignore: the compiler is wrong here\n  return'));
    expect(statusGates(repo).find((gate) => gate.name === 'types')?.runs).toBe(true);
  });

  it('runs a test that reads the changed file as text, and blocks on it', () => {
    const repo = fresh();
    repo.write('src/money.ts', '// TODO: banker’s rounding\nexport const cents = (amount: number): number => Math.round(amount * 100);\n');
    expect(statusGates(repo).find((gate) => gate.name === 'test')?.reason).toBe(
      'src/money.ts changed; src/money.ts changed in comments, formatting or types only, and tests/money-source.test.ts names it as text',
    );
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('money.ts has no TODO left');
    expect(readFileSync(logOf(repo, 'test'), 'utf8')).not.toContain('greet greets');
  });
});

describe.runIf(requireTools('pytest'))('pytest: a change in comments or layout only', () => {
  it('runs no test for a comment, and the tests for a docstring (a value a test can read)', () => {
    const repo = makeRepo({
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'test', preset: 'pytest' }] }, null, 2)}\n`,
      'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
      'shop/__init__.py': '',
      'shop/money.py': 'def cents(amount):\n    """Whole cents."""\n    return round(amount * 100)\n',
      'tests/test_money.py': 'from shop.money import cents\n\n\ndef test_doc():\n    assert cents.__doc__ == "Whole cents."\n',
    });
    try {
      promptStart(repo);
      repo.write('shop/money.py', '# money helpers\ndef cents(amount):\n    """Whole cents."""\n    return round(\n        amount * 100\n    )  # rounded half to even\n');
      expect(stop(repo).code).toBe(0);
      expect(existsSync(logOf(repo, 'test'))).toBe(false);
      expect(lastStopGates(repo)).toEqual([]);
      repo.write('shop/money.py', 'def cents(amount):\n    """Whole cents, rounded."""\n    return round(amount * 100)\n');
      const blocked = stop(repo);
      expect(blocked.code).toBe(2);
      expect(blocked.stderr).toContain('test_doc');
    } finally {
      repo.cleanup();
    }
  });
});

describe.runIf(requireTools('mypy'))('mypy: a change in comments or layout only', () => {
  const withTools = (repo: TempRepo) => ({ dir: repo.dir, env: toolEnv(repo.env) as Record<string, string> });
  it('runs no typecheck for comments and layout, and runs it when the environment or a directive it reads changes', () => {
    const TYPED = 'def cents(amount: float) -> int:\n    return round(amount * 100)\n\n\nLEGACY: int = "1"  # type: ignore[assignment]\n';
    const repo = makeRepo({
      '.gitignore': '.mypy_cache/\n.venv/\n',
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'typecheck', preset: 'mypy' }] }, null, 2)}\n`,
      'pyproject.toml': '[tool.mypy]\nstrict = true\n',
      'shop/__init__.py': '',
      'shop/money.py': TYPED,
    });
    try {
      promptStart(withTools(repo));
      repo.write('shop/money.py', `# money helpers\n${TYPED.replace('    return round(amount * 100)', '    return round(\n        amount * 100\n    )  # half to even')}`);
      expect(statusGates(repo).find((gate) => gate.name === 'typecheck')?.reason).toBe('shop/money.py changed in comments or layout only: the type checker reads the same code');
      expect(stop(withTools(repo)).code).toBe(0);
      expect(existsSync(logOf(repo, 'typecheck'))).toBe(false);
      expect(lastStopGates(repo)).toEqual([]);
      // A package installed during the turn: the same code may check otherwise, so it runs.
      repo.write('.venv/pyvenv.cfg', 'home = /usr/bin\n');
      repo.write('.venv/lib/python3/site-packages/types_extra-1.0.dist-info/METADATA', 'Name: types-extra\n');
      repo.write('shop/money.py', `# money helpers, in cents\n${TYPED}`);
      expect(stop(withTools(repo)).code).toBe(0);
      expect(existsSync(logOf(repo, 'typecheck'))).toBe(true);
      repo.write('shop/money.py', TYPED.replace('  # type: ignore[assignment]', '  # legacy'));
      const blocked = stop(withTools(repo));
      expect(blocked.code).toBe(2);
      expect(blocked.stderr).toContain('Incompatible types in assignment');
    } finally {
      repo.cleanup();
    }
  });
});

describe.runIf(requireTools('mypy', 'ruff'))('a stop that skipped a type checker records no pass', () => {
  it('judges the old type error at the next stop against where it was, not against the comment stop', () => {
    const withTools = (repo: TempRepo) => ({ dir: repo.dir, env: toolEnv(repo.env) as Record<string, string> });
    const OLD_ERROR = 'def cents(amount: float) -> int:\n    return round(amount * 100)\n\n\nLEGACY: int = "1"\n';
    const repo = makeRepo({
      '.gitignore': '.mypy_cache/\n.ruff_cache/\n',
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'typecheck', preset: 'mypy' }, { name: 'lint', preset: 'ruff' }] }, null, 2)}\n`,
      'pyproject.toml': '[tool.mypy]\nstrict = true\n',
      'shop/__init__.py': '',
      'shop/money.py': OLD_ERROR,
    });
    try {
      // No prompt: the change is measured from HEAD, or from the last tree that passed.
      repo.write('shop/money.py', `# money helpers\n${OLD_ERROR}`);
      const comment = stop(withTools(repo));
      expect(comment.code).toBe(0);
      expect(lastStopGates(repo)).toEqual([expect.objectContaining({ name: 'lint', status: 'passed' })]);
      expect(existsSync(join(repo.dir, '.git', 'gate', 'passed.json'))).toBe(false);
      // Code now, with the error from before this turn still there: not this change's.
      repo.write('shop/money.py', `# money helpers\n${OLD_ERROR.replace('amount * 100', 'amount * 100.0')}`);
      const code = stop(withTools(repo));
      expect(code.stderr).toBe('');
      expect(code.code).toBe(0);
    } finally {
      repo.cleanup();
    }
  });
});
