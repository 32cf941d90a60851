import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAILING_OTHER, SUM_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { hasTool, toolEnv } from '../helpers/tools.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const systemMessage = (stdout: string): string => JSON.parse(stdout).systemMessage;
const baselineLog = () => readFileSync(join(repo.dir, '.git', 'gate', 'logs', 'test.baseline.log'), 'utf8');
const withTools = (r: TempRepo) => ({ dir: r.dir, env: { ...(toolEnv(r.env) as Record<string, string>), GOFLAGS: '-count=1' } });
const testFilesIn = (log: string) => [...new Set([...log.matchAll(/src\/\w+\.test\.ts/g)].map((match) => match[0]))].sort();

// Issue 18, point 3: the baseline check re-runs only the test files that failed this turn.
describe('the baseline check runs only what failed', () => {
  const project = () => ({
    ...vitestProject({ gates: [{ name: 'test', preset: 'vitest', related: false }] }),
    ...FAILING_OTHER,
    'src/bystander.test.ts': "import { expect, it } from 'vitest';\n\nit('stands by', () => {\n  expect(1).toBe(1);\n});\n",
  });

  it('an old failure alone: only its file runs on the baseline, and the stop is let through', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/extra.ts', 'export const extra = 1;\n');
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/test still failing, but only with failures from before this turn/);
    expect(testFilesIn(baselineLog())).toEqual(['src/other.test.ts']);
  });

  it('a new failure beside an old one: both files run on the baseline, not the others; the new one blocks', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected -1 to be 3');
    expect(result.stderr).toMatch(/Already failing before this turn \(not caused by this change\): src\/other\.test\.ts > knows the answer\./);
    expect(testFilesIn(baselineLog())).toEqual(['src/other.test.ts', 'src/sum.test.ts']);
  });

  it('remembers per tree only what it checked: a later stop on the same baseline checks just the new failure', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/extra.ts', 'export const extra = 1;\n');
    expect(stop(repo).code).toBe(0);
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = stop(repo);
    // The baseline was only checked for other.test.ts: sum's failure is looked up, found new, and blocks.
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected -1 to be 3');
    expect(result.stderr).toMatch(/Already failing before this turn \(not caused by this change\): src\/other\.test\.ts > knows the answer\./);
    expect(testFilesIn(baselineLog())).toEqual(['src/sum.test.ts']);
    const records = JSON.parse(runBin(['log', '--json'], { cwd: repo.dir, env: repo.env }).stdout) as Array<{ gates: Array<{ baselineMs?: number }> }>;
    expect(records.map((record) => typeof record.gates[0]?.baselineMs)).toEqual(['number', 'number']);
  });

  it('a test file the turn added is new without a baseline run', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/added.test.ts', "import { expect, it } from 'vitest';\n\nit('is new', () => {\n  expect(1).toBe(2);\n});\n");
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('src/added.test.ts > is new');
    expect(testFilesIn(baselineLog())).toEqual(['src/other.test.ts']);
  });

  it('GATE_BASELINE=full runs the whole suite on the baseline, as before', () => {
    repo = makeRepo(project(), { nodeModules: true });
    repo.env['GATE_BASELINE'] = 'full';
    promptStart(repo);
    repo.write('src/extra.ts', 'export const extra = 1;\n');
    expect(stop(repo).code).toBe(0);
    expect(testFilesIn(baselineLog())).toEqual(['src/bystander.test.ts', 'src/other.test.ts', 'src/sum.test.ts']);
  });
});

describe.skipIf(!hasTool('pytest'))('pytest: the failing test files only', () => {
  it('runs the two failing files on the baseline, not the other one; the old failure is named, the new one and a test added to an old file block', () => {
    repo = makeRepo({
      '.gitignore': '__pycache__/\n.pytest_cache/\n',
      'pyproject.toml': '[tool.pytest.ini_options]\npythonpath = ["."]\n',
      'gate.config.json': JSON.stringify({ gates: [{ name: 'test', preset: 'pytest', related: false }] }),
      'calc.py': 'def add(a, b):\n    return a + b\n',
      'tests/test_old.py': 'def test_old():\n    assert 1 == 2\n',
      'tests/test_add.py': 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_add_zero():\n    assert add(2, 0) == 2\n',
      'tests/test_bystander.py': 'def test_a():\n    pass\n\n\ndef test_b():\n    pass\n\n\ndef test_c():\n    pass\n\n\ndef test_d():\n    pass\n',
    });
    promptStart(withTools(repo));
    repo.write('calc.py', 'def add(a, b):\n    return a - b\n');
    repo.write('tests/test_old.py', 'def test_old():\n    assert 1 == 2\n\n\ndef test_added():\n    assert 2 == 3\n');
    const result = stop(withTools(repo));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('tests/test_add.py::test_add');
    expect(result.stderr).toContain('tests/test_old.py::test_added');
    expect(result.stderr).toMatch(/Already failing before this turn \(not caused by this change\): tests\/test_old\.py::test_old\./);
    expect(baselineLog()).toMatch(/^1 failed, 2 passed in /m);
  });
});

describe.skipIf(!hasTool('go'))('go test: the failing tests of the failing packages only', () => {
  it('runs TestOld and TestAdd on the baseline, not the other package; the old one is named, the new one blocks', () => {
    repo = makeRepo({
      '.gitignore': '',
      'go.mod': 'module example.com/calc\n\ngo 1.18\n',
      'gate.config.json': JSON.stringify({ gates: [{ name: 'test', preset: 'go-test', related: false }] }),
      'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n',
      'calc_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tt.Run("small", func(t *testing.T) {\n\t\tif Add(1, 2) != 3 {\n\t\t\tt.Fatalf("Add(1, 2) = %d", Add(1, 2))\n\t\t}\n\t})\n}\n\nfunc TestZero(t *testing.T) {\n\tt.Log("zero ran")\n}\n',
      'old/old_test.go': 'package old\n\nimport "testing"\n\nfunc TestOld(t *testing.T) {\n\tt.Fatal("always broken")\n}\n',
      'bystander/bystander_test.go': 'package bystander\n\nimport "testing"\n\nfunc TestBystander(t *testing.T) {}\n',
    });
    Object.assign(repo.env, { GOCACHE: join(repo.home, 'go-cache'), GOPATH: join(repo.home, 'go'), GOPROXY: 'off', GOTOOLCHAIN: 'local', GOTELEMETRY: 'off' });
    promptStart(withTools(repo));
    repo.write('calc.go', 'package calc\n\nfunc Add(a, b int) int { return a - b }\n');
    const result = stop(withTools(repo));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Add(1, 2) = -1');
    expect(result.stderr).toMatch(/Already failing before this turn \(not caused by this change\): example\.com\/calc\/old\.TestOld\./);
    const log = baselineLog();
    expect(log).toMatch(/^FAIL\texample\.com\/calc\/old\b/m);
    expect(log).toMatch(/^ok\s+example\.com\/calc\s/m);
    expect(log).not.toContain('bystander');
  });
});

// Issue 27, point 4: a full run on the starting tree already said what failed there.
describe('a full run on the starting tree answers the baseline question without a copy', () => {
  const project = () => ({ ...vitestProject({ gates: [{ name: 'test', preset: 'vitest', related: false }] }), ...FAILING_OTHER });
  const copyRan = () => existsSync(join(repo.dir, '.git', 'gate', 'logs', 'test.baseline.log'));

  it('after `gate check --all`: its failures are the old ones, the new one blocks, and no copy runs', () => {
    repo = makeRepo(project(), { nodeModules: true });
    expect(runBin(['check', '--all'], { cwd: repo.dir, env: repo.env }).code).toBe(1);
    promptStart(repo);
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected -1 to be 3');
    expect(result.stderr).toMatch(/Already failing before this turn \(not caused by this change\): src\/other\.test\.ts > knows the answer\./);
    expect(copyRan()).toBe(false);
  });

  it('after `gate ci`, which keeps no session state but does remember the tree', () => {
    repo = makeRepo(project(), { nodeModules: true });
    expect(runBin(['ci'], { cwd: repo.dir, env: repo.env }).code).toBe(1);
    promptStart(repo);
    repo.write('src/extra.ts', 'export const extra = 1;\n');
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/test still failing, but only with failures from before this turn/);
    expect(copyRan()).toBe(false);
  });
});
