import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptySuite } from '../../src/init/find-test-files.js';

// Issue 26.1: a runner with no test to run fails its full run; init writes no gate for it.

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function project(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'gate-suite-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('emptySuite', () => {
  it('vitest: no test file under the defaults, but one inside node_modules or dist does not count', () => {
    project({ 'vitest.config.ts': 'export default {};\n', 'src/a.ts': '', 'node_modules/x/a.test.ts': '', 'dist/a.test.js': '' });
    expect(emptySuite('vitest', dir)).toMatch(/^no file here matches vitest's default test patterns/);
  });

  it('vitest: a test file anywhere under the defaults, or a config it cannot read cheaply, keeps the gate', () => {
    project({ 'vitest.config.ts': 'export default {};\n', 'src/deep/a.spec.tsx': '' });
    expect(emptySuite('vitest', dir)).toBeUndefined();
    rmSync(dir, { recursive: true });
    project({ 'vitest.config.ts': 'export default { test: { include: patterns } };\n' });
    expect(emptySuite('vitest', dir)).toBeUndefined();
  });

  it("vitest: the config's own include list, and a config merged from the root one import up", () => {
    project({ 'vitest.config.mts': "export default { test: { include: ['checks/**/*.check.ts'] } };\n", 'src/a.test.ts': '' });
    expect(emptySuite('vitest', dir)).toMatch(/the test patterns of vitest\.config\.mts \(checks\/\*\*\/\*\.check\.ts\)/);
    mkdirSync(join(dir, 'checks'));
    writeFileSync(join(dir, 'checks', 'a.check.ts'), '');
    expect(emptySuite('vitest', dir)).toBeUndefined();
  });

  it('vitest: a package config merging a root config that sets in-source tests is not told', () => {
    project({
      'vitest.config.ts': "export default { test: { includeSource: ['src/**/*.ts'] } };\n",
      'packages/a/vitest.config.ts': "import base from '../../vitest.config';\nexport default base;\n",
      'packages/a/src/a.ts': '',
    });
    expect(emptySuite('vitest', join(dir, 'packages/a'))).toBeUndefined();
  });

  it('jest and pytest: their default patterns; pytest settings that move collection keep the gate', () => {
    project({ 'package.json': '{}', 'src/__tests__/a.js': '' });
    expect(emptySuite('jest', dir)).toBeUndefined();
    rmSync(dir, { recursive: true });
    project({ 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "-q"\n', 'pkg/mod.py': '', 'conftest.py': '' });
    expect(emptySuite('pytest', dir)).toMatch(/pytest's default test patterns/);
    writeFileSync(join(dir, 'pyproject.toml'), '[tool.pytest.ini_options]\ntestpaths = ["checks"]\n');
    expect(emptySuite('pytest', dir)).toBeUndefined();
  });
});
