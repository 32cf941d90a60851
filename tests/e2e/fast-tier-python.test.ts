import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { hasTool, toolEnv } from '../helpers/tools.js';

// The tools come from scripts/install-tools.mjs (npm test's pretest): missing is a broken set-up, not a skip.
const missing = ['ruff', 'mypy'].filter((tool) => !hasTool(tool));
if (missing.length > 0 && process.env['GATE_TEST_ALLOW_MISSING_TOOLS'] !== '1') {
  throw new Error(`${missing.join(' and ')} not found: run node scripts/install-tools.mjs (or set GATE_TEST_ALLOW_MISSING_TOOLS=1 to skip)`);
}

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const withTools = (r: TempRepo) => ({ dir: r.dir, env: toolEnv(r.env) as Record<string, string> });
const gateConfig = (gates: object[]) => `${JSON.stringify({ gates }, null, 2)}\n`;
const statusJson = (r: TempRepo) => JSON.parse(runBin(['status', '--json'], { cwd: r.dir, env: withTools(r).env }).stdout) as { gates: Array<{ fast?: boolean; reason?: string; tier?: string; command?: string }> };

describe.skipIf(missing.length > 0)('ruff: the changed files, its cache under gate\'s state', () => {
  const project = () => ({
    '.gitignore': '__pycache__/\n',
    'pyproject.toml': '[project]\nname = "shop"\nversion = "0.1.0"\n\n[tool.ruff.lint]\nselect = ["F"]\n',
    'legacy.py': 'import os\n',
    'shop/__init__.py': '',
    'shop/price.py': 'def price(cents: int) -> float:\n    return cents / 100\n',
    'gate.config.json': gateConfig([{ name: 'lint', preset: 'ruff' }]),
  });

  it('lints only the changed file, blocks its new error, and keeps .ruff_cache out of the tree', () => {
    repo = makeRepo(project());
    promptStart(withTools(repo));
    repo.write('shop/price.py', 'import json\n\n\ndef price(cents: int) -> float:\n    return cents / 100\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: true, tier: 'only what shop/price.py touches' });
    const blocked = stop(withTools(repo));
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/F401 \[\*\] `json` imported but unused\n\s*--> shop\/price\.py:1:8/);
    expect(blocked.stderr).not.toContain('legacy.py');
    expect(existsSync(join(repo.dir, '.ruff_cache'))).toBe(false);
    expect(readdirSync(join(repo.dir, '.git', 'gate', 'cache', 'lint')).length).toBeGreaterThan(0);
    repo.write('shop/price.py', 'def price(cents: int) -> float:\n    return cents / 100\n');
    expect(stop(withTools(repo)).code).toBe(0);
  });

  it('runs everything when pyproject.toml changed', () => {
    repo = makeRepo(project());
    repo.write('pyproject.toml', '[project]\nname = "shop"\nversion = "0.1.0"\n\n[tool.ruff.lint]\nselect = ["F", "E"]\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: false, reason: 'pyproject.toml changed, a lockfile or manifest (the full run)', tier: 'the full run', command: 'ruff check --no-fix .' });
  });
});

describe.skipIf(missing.length > 0)('mypy: incremental, its cache under gate\'s state', () => {
  it('catches an error the change causes in a module it did not touch, with no .mypy_cache in the tree', () => {
    repo = makeRepo({
      '.gitignore': '__pycache__/\n',
      'pyproject.toml': '[tool.mypy]\nstrict = true\n',
      'shop/__init__.py': '',
      'shop/price.py': 'def price(cents: int) -> float:\n    return cents / 100\n',
      'shop/cart.py': 'from shop.price import price\n\n\ndef total() -> float:\n    return price(250) + price(100)\n',
      'gate.config.json': gateConfig([{ name: 'typecheck', preset: 'mypy' }]),
    });
    promptStart(withTools(repo));
    repo.write('shop/price.py', 'def price(cents: int) -> str:\n    return f"{cents / 100:.2f}"\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: true, command: `mypy --cache-dir ${join(repo.dir, '.git', 'gate', 'cache', 'typecheck')} .` });
    const blocked = stop(withTools(repo));
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/shop\/cart\.py:5: error: Incompatible return value type \(got "str", expected "float"\)/);
    expect(existsSync(join(repo.dir, '.mypy_cache'))).toBe(false);
    expect(readdirSync(join(repo.dir, '.git', 'gate', 'cache', 'typecheck'))).toContain('CACHEDIR.TAG');
    // The second stop reads the cache the first one wrote, and sees the fix.
    repo.write('shop/cart.py', 'from shop.price import price\n\n\ndef total() -> str:\n    return price(250)\n');
    expect(stop(withTools(repo)).code).toBe(0);
  });
});
