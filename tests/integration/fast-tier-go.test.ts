import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { placeGoTestFiles } from '../../src/report/place-go-test-files.js';
import { isFileNow, placeTaskPaths } from '../../src/report/place-task-paths.js';
import { headSnapshot } from '../../src/snapshot/snapshot.js';
import { rerunTransient } from '../../src/transient/rerun-transient.js';
import { build, presetGate, requireTools, run } from '../helpers/fast-tier.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';

const ready = requireTools('go');

let repo: TempRepo;
afterEach(() => repo?.cleanup());

// One build cache for the file: the standard library compiles once, not once per test. No network:
// the module has no dependencies, and GOPROXY=off makes sure nothing is fetched.
const goHome = mkdtempSync(join(tmpdir(), 'gate-go-'));
afterAll(() => rmSync(goHome, { recursive: true, force: true }));
const GO_ENV = {
  GOCACHE: join(goHome, 'cache'),
  GOPATH: join(goHome, 'path'),
  GOFLAGS: '-mod=mod',
  GOPROXY: 'off',
  GOTOOLCHAIN: 'local',
  GOTELEMETRY: 'off',
};

// lib is shared (app imports it), leaf stands alone; each has a test.
const MODULE = {
  'go.mod': 'module example.test/shop\n\ngo 1.19\n',
  'lib/lib.go': 'package lib\n\nfunc Add(a, b int) int { return a + b }\n',
  'lib/lib_test.go': 'package lib\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("Add(1, 2) != 3")\n\t}\n}\n',
  'app/app.go': 'package app\n\nimport "example.test/shop/lib"\n\nfunc Total() int { return lib.Add(2, 2) }\n',
  'app/app_test.go': 'package app\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif Total() != 4 {\n\t\tt.Fatal("Total() != 4")\n\t}\n}\n',
  'leaf/leaf.go': 'package leaf\n\nfunc Name() string { return "leaf" }\n',
  'leaf/leaf_test.go': 'package leaf_test\n\nimport (\n\t"os"\n\t"testing"\n\n\t"example.test/shop/leaf"\n)\n\nfunc TestName(t *testing.T) {\n\twant, _ := os.ReadFile("testdata/name.txt")\n\tif leaf.Name() != string(want) {\n\t\tt.Fatal("Name() differs from testdata/name.txt")\n\t}\n}\n',
  'leaf/testdata/name.txt': 'leaf',
};

function setUp(preset = 'go-test') {
  repo = makeRepo(MODULE);
  const env = { PATH: toolEnv()['PATH'] ?? '', ...GO_ENV };
  return { gate: presetGate(repo.dir, preset, env, preset === 'go-test' ? 'test' : 'vet'), env: { ...repo.env, ...env } };
}

describe.skipIf(!ready)('go test / go vet: the changed packages and those that import them', () => {
  it('tests only the leaf for a change in the leaf or its testdata, and only lib for a change in lib\'s tests', async () => {
    const { gate, env } = setUp();
    repo.write('leaf/leaf.go', 'package leaf\n\nfunc Name() string { return "leaves" }\n');
    const command = await build(repo.dir, gate, ['leaf/leaf.go']);
    expect(command).toMatchObject({ argv: ['go', 'test', './leaf'], fast: true, why: 'only 1 of 3 packages: ./leaf (the changed ones and those that import them)' });
    const result = await run(repo.dir, gate, ['leaf/leaf.go'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/Name\(\) differs from testdata\/name.txt/);
    expect(result.output).not.toMatch(/example.test\/shop\/(lib|app)/);
    expect((await build(repo.dir, gate, ['leaf/testdata/name.txt'])).argv).toEqual(['go', 'test', './leaf']);
    expect((await build(repo.dir, gate, ['lib/lib_test.go'])).argv).toEqual(['go', 'test', './lib']);
  });

  it('tests the shared package and its importers, and catches an importer it broke', async () => {
    const { gate, env } = setUp();
    // lib renames Add, its own test follows; app (never opened) still calls lib.Add.
    repo.write('lib/lib.go', 'package lib\n\nfunc Sum(a, b int) int { return a + b }\n');
    repo.write('lib/lib_test.go', 'package lib\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Fatal("Sum(1, 2) != 3")\n\t}\n}\n');
    const files = ['lib/lib.go', 'lib/lib_test.go'];
    const command = await build(repo.dir, gate, files);
    expect(command).toMatchObject({ argv: ['go', 'test', './app', './lib'], fast: true, why: 'only 2 of 3 packages: ./app and ./lib (the changed ones and those that import them)' });
    const result = await run(repo.dir, gate, files, env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/undefined: lib\.Add/);
    expect(result.output).toMatch(/ok\s+example\.test\/shop\/lib/);
  });

  it('vets the same packages, and catches the broken importer too', async () => {
    const { gate, env } = setUp('go-vet');
    repo.write('lib/lib.go', 'package lib\n\nfunc Sum(a, b int) int { return a + b }\n');
    repo.write('lib/lib_test.go', 'package lib\n');
    const files = ['lib/lib.go', 'lib/lib_test.go'];
    expect(await build(repo.dir, gate, files)).toMatchObject({ argv: ['go', 'vet', './app', './lib'], fast: true });
    const vetted = await run(repo.dir, gate, files, env);
    expect(vetted.status).toBe('failed');
    expect(vetted.output).toMatch(/app\/app\.go:5:\d+: Add not declared by package lib/);
    expect(vetted.output).not.toMatch(/lib\/lib/);
  });

  it('runs every package for go.mod, go.sum or go.work, for --all, and when go list fails', async () => {
    const { gate } = setUp();
    for (const file of ['go.mod', 'go.sum', 'go.work']) {
      expect(await build(repo.dir, gate, [file, 'leaf/leaf.go'])).toMatchObject({ argv: ['go', 'test', './...'], fast: false, why: `${file} changed, which affects every package` });
    }
    expect(await build(repo.dir, gate, ['leaf/leaf.go'], true)).toMatchObject({ argv: ['go', 'test', './...'], fast: false, why: 'the full run' });
    const broken = { ...gate, env: { ...gate.env, PATH: '/nonexistent' } };
    expect(await build(repo.dir, broken, ['leaf/leaf.go'])).toMatchObject({ fast: false, why: 'go was not found on PATH, so the packages the change reaches are unknown' });
    repo.remove('leaf/leaf.go');
    repo.remove('leaf/leaf_test.go');
    expect(await build(repo.dir, gate, ['leaf/leaf.go'])).toMatchObject({ fast: false, why: 'leaf/leaf.go is in no package go list knows of (a deleted package, or a folder go ignores)' });
  });
});

// issue 38: go test names a failing test's file by its bare name (`app_test.go:7:`), in its
// package's folder — or a helper's file in another package (goldmark's testutil.go). Read from the
// gate's folder it is no file, so the failure looked like one in a file that appeared or vanished
// while the gates ran, and the gate ran again alone.
describe.skipIf(!ready)('a failing go test below the module root', () => {
  it("is read as its package's file (app/app_test.go) or a helper's, not run again alone", async () => {
    const { gate, env } = setUp();
    // lib's test checks through a helper package, as goldmark's do through testutil.
    repo.write('check/check.go', 'package check\n\nimport "testing"\n\nfunc Equal(t *testing.T, got, want int) {\n\tif got != want {\n\t\tt.Errorf("got %d, want %d", got, want)\n\t}\n}\n');
    repo.write('lib/lib_test.go', 'package lib\n\nimport (\n\t"testing"\n\n\t"example.test/shop/check"\n)\n\nfunc TestAdd(t *testing.T) {\n\tcheck.Equal(t, Add(1, 2), 3)\n}\n');
    repo.commit('a helper package');
    // Add subtracts: lib's test fails, and app's, which totals with it.
    repo.write('lib/lib.go', 'package lib\n\nfunc Add(a, b int) int { return a - b }\n');
    const result = await run(repo.dir, gate, ['lib/lib.go'], env);
    expect(result.status).toBe('failed');
    const failures = filterOutput(result.filter, result.output).failures.map(({ id, file }) => ({ id, file }));
    expect(failures.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'example.test/shop/app.TestTotal', file: 'app_test.go' },
      { id: 'example.test/shop/lib.TestAdd', file: 'check.go' },
    ]);

    // The report names the test's file from the project, as the agent opens it; the helper's stays as go printed it.
    const report = placeTaskPaths(placeGoTestFiles(filterOutput(result.filter, result.output), repo.dir, repo.dir, isFileNow), [repo.dir], isFileNow);
    expect(report.failures.map((failure) => failure.file).sort()).toEqual(['app/app_test.go', 'check.go']);
    expect(report.items.flat()).toContain('    app/app_test.go:7: Total() != 4');
    expect(report.items.flat()).toContain('    check.go:7: got -1, want 3');

    const rerun = vi.fn(async () => ({ ...result, status: 'passed' as const }));
    const options = { root: repo.dir, snapshot: headSnapshot(null), changed: ['lib/lib.go'], cwdOf: () => repo.dir, rerun };
    expect(await rerunTransient([result], options)).toEqual({ results: [result], reruns: [], transient: new Map() });
    expect(rerun).not.toHaveBeenCalled();

    // Files that did vanish during the run (not there now, and the tree had them) are named where they were.
    rmSync(join(repo.dir, 'app', 'app_test.go'));
    rmSync(join(repo.dir, 'check', 'check.go'));
    expect((await rerunTransient([result], options)).reruns).toEqual([{ name: 'test', files: ['app/app_test.go', 'check/check.go'], status: 'passed' }]);
  });
});
