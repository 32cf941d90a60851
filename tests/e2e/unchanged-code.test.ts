// A change that leaves the code the tests run the same — comments, formatting, types — runs no test
// (issue 39 point 1); the typecheck still runs, a test that reads the changed file as text still
// runs, and a change in code still runs its tests. Real stops of the built bin, real vitest, tsc, pytest.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTools } from '../helpers/fast-tier.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { copyRepo, makeRepo, type TempRepo } from '../helpers/temp-repo.js';

const logOf = (repo: TempRepo, gate: string) => join(repo.dir, '.git', 'gate', 'logs', `${gate}.log`);
const lastStopGates = (repo: TempRepo) => (JSON.parse(runBin(['log', '--json'], { cwd: repo.dir, env: repo.env }).stdout) as Array<{ gates: Array<{ name: string; status: string }> }>).at(-1)?.gates;
const statusGates = (repo: TempRepo) => (JSON.parse(runBin(['status', '--json'], { cwd: repo.dir, env: repo.env }).stdout) as { gates: Array<{ name: string; runs: boolean; reason: string; command?: string }> }).gates;

const GREET = 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n';
const GREET_COMMENTED = '/** Greets someone by name. */\nexport function greet(\n  name: string, // who\n): string {\n  return `hello ${name}`;\n}\n';

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

  it('runs no test, runs the typecheck, and lets the stop through', () => {
    const repo = fresh();
    repo.write('src/greet.ts', GREET_COMMENTED);
    const test = statusGates(repo).find((gate) => gate.name === 'test');
    expect(test).toMatchObject({ runs: false, reason: 'src/greet.ts changed in comments, formatting or types only: no code its tests run changed' });
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(existsSync(logOf(repo, 'test'))).toBe(false);
    expect(lastStopGates(repo)).toEqual([expect.objectContaining({ name: 'types', status: 'passed' })]);
    // A type error in a comment-only stop still blocks: the typecheck is not skipped.
    repo.write('src/greet.ts', GREET_COMMENTED.replace('): string {', '): number {'));
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('types');
    expect(existsSync(logOf(repo, 'test'))).toBe(false);
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
