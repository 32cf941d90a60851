import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { requireTools } from '../helpers/fast-tier.js';
import { promptStart, stop } from '../helpers/run-bin.js';
import type { TempRepo } from '../helpers/temp-repo.js';
import { toolEnv } from '../helpers/tools.js';
import { cargoEnv, cargoWorkspace, goEnv, goWorkspace } from '../helpers/workspace-fixtures.js';

// The go.work and cargo workspaces of workspace-fixtures.ts, stopped with the built bin as a
// harness would: which packages' gates a change runs (from the stop log), and what the agent reads
// when a change in the shared module or crate breaks the one that depends on it.

const goReady = requireTools('go');
const cargoReady = requireTools('cargo');

let repo: TempRepo;
afterEach(() => repo?.cleanup());

// One build cache per tool for the file: the standard library compiles once, not once per test.
// The cargo target folder is outside the repositories, as a CARGO_TARGET_DIR user has it.
const home = mkdtempSync(join(tmpdir(), 'gate-monorepo-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const read = (r: TempRepo, path: string) => readFileSync(join(r.dir, path), 'utf8');
const lastStop = (r: TempRepo) => readStopRecords(join(r.dir, '.git', 'gate')).at(-1);
const ran = (r: TempRepo) => (lastStop(r)?.gates ?? []).filter((gate) => gate.status !== 'cached');
const ranGates = (r: TempRepo) =>
  ran(r)
    .map((gate) => gate.name)
    .sort();
const gateOf = (r: TempRepo, name: string) => ran(r).find((gate) => gate.name === name);
/** 1-based number of the first line of `text` holding `needle`. */
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;

/** The repo's hermetic env with the tools on PATH (and rustup's home), their caches under `home`. */
function withTools(r: TempRepo, caches: Record<string, string>): TempRepo {
  const tools = toolEnv(r.env);
  const rustup = tools['RUSTUP_HOME'];
  r.env = { ...r.env, PATH: tools['PATH'] ?? '', ...(rustup ? { RUSTUP_HOME: rustup } : {}), ...caches };
  return r;
}

describe.skipIf(!goReady)('a stop in a go.work workspace of 3 modules (api requires shared; tool alone), a config per module', () => {
  const env = goEnv(join(home, 'go'));

  /** tool gains a function; its test still passes. */
  const touchTool = (r: TempRepo) => r.write('tool/version.go', `${read(r, 'tool/version.go')}\n// Name is the tool's name.\nfunc Name() string {\n\treturn "tool"\n}\n`);
  const touchShared = (r: TempRepo) =>
    r.write('shared/greeting.go', `${read(r, 'shared/greeting.go')}\n// Farewell is how every service says goodbye.\nfunc Farewell(name string) string {\n\treturn "Bye, " + name\n}\n`);

  /** shared says "Hi" now and its own test follows; api (never touched) still expects "Hello, Ada!". */
  function breakShared(r: TempRepo) {
    r.write('shared/greeting.go', read(r, 'shared/greeting.go').replace('"Hello, "', '"Hi, "'));
    r.write('shared/greeting_test.go', read(r, 'shared/greeting_test.go').replace('"Hello, Ada"', '"Hi, Ada"'));
    // go test names the file in its package's folder; the report names it from the project.
    return { test: 'TestWelcome', location: `api/welcome_test.go:${lineOf(read(r, 'api/welcome_test.go'), 't.Fatalf')}` };
  }

  const plain = (r: TempRepo) => r;

  /**
   * Each module's gate is the go-test preset, whose fast tier runs `go list ./...` in the module (in
   * workspace mode: go.work is above it). tool and api get a second package each, independent of
   * the first, so the tier has something to leave out, and api's full run something more to test.
   */
  function preset(r: TempRepo): TempRepo {
    for (const dir of ['shared', 'api', 'tool']) r.write(`${dir}/gate.config.json`, json({ gates: [{ name: 'test', preset: 'go-test' }] }));
    const pkg = (dir: string, name: string, body: string, test: string) => {
      r.write(`${dir}/${name}.go`, `package ${name}\n\n${body}\n`);
      r.write(`${dir}/${name}_test.go`, `package ${name}\n\nimport "testing"\n\nfunc TestIt(t *testing.T) {\n\t${test}\n}\n`);
    };
    pkg('tool/semver', 'semver', 'func Major(v string) string { return v[:1] }', 'if Major("1.0.0") != "1" {\n\t\tt.Fatal("Major")\n\t}');
    pkg('api/routes', 'routes', 'const Root = "/"', 'if Root != "/" {\n\t\tt.Fatal("Root")\n\t}');
    r.commit('the go-test preset in each module');
    return r;
  }

  describe.each([
    ['runs go test ./...', plain],
    ['is the go-test preset', preset],
  ])('each module\'s test gate %s', (_how, configure) => {
    const usesPreset = configure === preset;

    it('a change in the independent module runs only its gate', () => {
      repo = configure(withTools(goWorkspace({ gateConfigs: true }), env));
      promptStart(repo);
      touchTool(repo);
      expect(stop(repo)).toMatchObject({ code: 0 });
      expect(ranGates(repo)).toEqual(['tool:test']);
      // go list works inside a workspace module: the tier leaves tool/semver out.
      if (usesPreset) expect(gateOf(repo, 'tool:test')?.tier).toBe('only 1 of 2 packages: . (the changed ones and those that import them)');
    });

    it('a change in shared runs shared and api, which requires it, in full; never tool', () => {
      repo = configure(withTools(goWorkspace({ gateConfigs: true }), env));
      promptStart(repo);
      touchShared(repo);
      expect(stop(repo)).toMatchObject({ code: 0 });
      expect(ranGates(repo)).toEqual(['api:test', 'shared:test']);
      const apiLog = read(repo, '.git/gate/logs/api~test.log');
      expect(apiLog).toMatch(/^ok\s+example\.com\/api\s/m);
      if (usesPreset) {
        expect(gateOf(repo, 'api:test')?.tier).toBe('the full run');
        expect(apiLog).toMatch(/^ok\s+example\.com\/api\/routes\s/m);
        expect(gateOf(repo, 'shared:test')?.tier).toBe('a single package: nothing to narrow');
      }
    });

    it('a change to go.work runs every module\'s gate in full', () => {
      repo = configure(withTools(goWorkspace({ gateConfigs: true }), env));
      promptStart(repo);
      repo.write('go.work', `// The shop's modules.\n${read(repo, 'go.work')}`);
      expect(stop(repo)).toMatchObject({ code: 0 });
      expect(ranGates(repo)).toEqual(['api:test', 'shared:test', 'tool:test']);
      if (usesPreset) for (const name of ['api:test', 'shared:test', 'tool:test']) expect(gateOf(repo, name)?.tier).toBe('the full run');
    });

    it('a change in shared that breaks api blocks, and the report names api\'s gate, its failing test and file:line', () => {
      repo = configure(withTools(goWorkspace({ gateConfigs: true }), env));
      promptStart(repo);
      const broken = breakShared(repo);
      const result = stop(repo);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^gate: 1 of 2 checks failed \(api:test\); stop refused/);
      expect(result.stderr).toContain('## api:test: failed (exit 1)\n$ cd api && go test ./...\n');
      expect(result.stderr).toContain(`--- FAIL: ${broken.test} (example.com/api)`);
      expect(result.stderr).toContain(`${broken.location}: got "Hi, Ada!", want "Hello, Ada!"`);
      expect(result.stderr).not.toContain('shared:test');
      expect(ranGates(repo)).toEqual(['api:test', 'shared:test']);
      expect(gateOf(repo, 'api:test')).toMatchObject({ status: 'failed' });
      expect(gateOf(repo, 'api:test')?.preExisting).toBeUndefined();
    });
  });
});

describe.skipIf(!cargoReady)('a stop in a cargo workspace of 3 crates (acme-app depends on acme-shared; acme-tool alone)', () => {
  const env = cargoEnv(join(home, 'cargo'));

  const touchTool = (r: TempRepo) => r.write('tool/src/lib.rs', `${read(r, 'tool/src/lib.rs')}\npub fn version() -> &'static str {\n    "1.0.0"\n}\n`);
  const touchShared = (r: TempRepo) => r.write('shared/src/lib.rs', `${read(r, 'shared/src/lib.rs')}\npub fn double(a: i32) -> i32 {\n    add(a, a)\n}\n`);

  /** shared's add counts in hundredths now and its own test follows; app (never touched) still expects total() == 4. */
  function breakShared(r: TempRepo) {
    r.write('shared/src/lib.rs', read(r, 'shared/src/lib.rs').replace('    a + b\n', '    (a + b) * 100\n').replace('super::add(1, 2), 3', 'super::add(1, 2), 300'));
    // rustc names a workspace member's files from the workspace root.
    return { test: 'tests::totals', location: `app/src/lib.rs:${lineOf(read(r, 'app/src/lib.rs'), 'assert_eq!')}` };
  }

  describe('(a) a config per crate, and "workspaces": "cargo" at the root', () => {
    it('a change in the independent crate runs only its gate', () => {
      repo = withTools(cargoWorkspace({ gateConfigs: true }), env);
      promptStart(repo);
      touchTool(repo);
      expect(stop(repo)).toMatchObject({ code: 0 });
      expect(ranGates(repo)).toEqual(['tool:test']);
    });

    it('a change in shared runs shared and app, which depends on it; never tool', () => {
      repo = withTools(cargoWorkspace({ gateConfigs: true }), env);
      promptStart(repo);
      touchShared(repo);
      expect(stop(repo)).toMatchObject({ code: 0 });
      expect(ranGates(repo)).toEqual(['app:test', 'shared:test']);
    });

    it('a change to the root Cargo.toml runs every crate\'s gate', () => {
      repo = withTools(cargoWorkspace({ gateConfigs: true }), env);
      promptStart(repo);
      repo.write('Cargo.toml', `# The shop's crates.\n${read(repo, 'Cargo.toml')}`);
      expect(stop(repo)).toMatchObject({ code: 0 });
      expect(ranGates(repo)).toEqual(['app:test', 'shared:test', 'tool:test']);
    });

    it('a change in shared that breaks app blocks, and the report names app\'s gate, its failing test and file:line', () => {
      repo = withTools(cargoWorkspace({ gateConfigs: true }), env);
      promptStart(repo);
      const broken = breakShared(repo);
      const result = stop(repo);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^gate: 1 of 2 checks failed \(app:test\); stop refused/);
      expect(result.stderr).toContain('## app:test: failed (exit 101)\n$ cd app && cargo test --offline\n');
      expect(result.stderr).toContain(`---- ${broken.test} stdout ----`);
      expect(result.stderr).toContain(`panicked at ${broken.location}`);
      expect(ranGates(repo)).toEqual(['app:test', 'shared:test']);
      // Judged new: the baseline run (on a copy of the commit) builds into its own target folder.
      expect(gateOf(repo, 'app:test')?.preExisting).toBeUndefined();
    });
  });

  describe('(b) one root config with the cargo-test preset, whose fast tier narrows to the crates reached', () => {
    function rootPreset(): TempRepo {
      const r = withTools(cargoWorkspace(), env);
      r.write('gate.config.json', json({ gates: [{ name: 'test', preset: 'cargo-test' }] }));
      r.commit('gate');
      return r;
    }

    it('a change in the independent crate tests only it', () => {
      repo = rootPreset();
      promptStart(repo);
      touchTool(repo);
      expect(stop(repo)).toMatchObject({ code: 0 });
      expect(ranGates(repo)).toEqual(['test']);
      expect(gateOf(repo, 'test')?.tier).toBe('only 1 of 3 crates: acme-tool (the changed ones and those that depend on them)');
    });

    it('a change in shared tests shared and app, not tool', () => {
      repo = rootPreset();
      promptStart(repo);
      touchShared(repo);
      expect(stop(repo)).toMatchObject({ code: 0 });
      expect(gateOf(repo, 'test')?.tier).toBe('only 2 of 3 crates: acme-app and acme-shared (the changed ones and those that depend on them)');
      const log = read(repo, '.git/gate/logs/test.log');
      expect(log).toMatch(/Running unittests src\/lib\.rs .*acme_app-/);
      expect(log).not.toMatch(/acme[-_]tool/);
    });

    it('a change in shared that breaks app blocks, and the report shows the narrowed command, app\'s failing test and file:line', () => {
      repo = rootPreset();
      promptStart(repo);
      const broken = breakShared(repo);
      const result = stop(repo);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^gate: 1 of 1 checks failed \(test\); stop refused/);
      expect(result.stderr).toContain('## test: failed (exit 101)\n$ cargo test --no-fail-fast -p acme-app -p acme-shared\n');
      expect(result.stderr).not.toContain('acme-tool');
      expect(result.stderr).toContain(`---- ${broken.test} stdout ----`);
      expect(result.stderr).toContain(`panicked at ${broken.location}`);
      expect(gateOf(repo, 'test')?.preExisting).toBeUndefined();
    });
  });
});
