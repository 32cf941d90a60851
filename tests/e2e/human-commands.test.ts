import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUM_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const twoGates = {
  gates: [
    { name: 'test', preset: 'vitest' },
    { name: 'docs', run: ['node', '-e', 'process.exit(0)'], on: ['**/*.md'] },
  ],
};

describe('gate check', () => {
  it('runs only the gates the change triggers, prints a status line each and the failure, exits 1', () => {
    repo = makeRepo(vitestProject(twoGates), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const sarif = join(repo.home, 'gate.sarif');
    const junit = join(repo.home, 'gate.xml');
    const result = runBin(['check', '--sarif', sarif, '--junit', junit], { cwd: repo.dir, env: repo.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/✖ test {2}failed \(exit 1\) {2}\d+\.\d+s/);
    expect(result.stderr).not.toMatch(/docs/);
    expect(result.stdout).toContain('expected -1 to be 3');

    // Issue 41: the same failure as SARIF (located in the test file) and as JUnit XML.
    const log = JSON.parse(readFileSync(sarif, 'utf8'));
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0].tool.driver.name).toBe('vitest');
    expect(log.runs[0].results).toEqual([
      expect.objectContaining({
        ruleId: 'failing-test',
        message: { text: expect.stringMatching(/^src\/sum\.test\.ts > sum > adds two numbers: .*expected -1 to be 3/) },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'src/sum.test.ts', uriBaseId: '%SRCROOT%' }, region: { startLine: expect.any(Number) } } }],
        baselineState: 'new',
      }),
    ]);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="test" tests="1" failures="1" errors="0" skipped="0"');
    expect(xml).toMatch(/<testcase classname="test\.vitest" name="src\/sum\.test\.ts &gt; sum &gt; adds two numbers" file="src\/sum\.test\.ts" line="\d+">\n {6}<failure message="[^"]*expected -1 to be 3/);
  });

  it("marks in SARIF a failure gate saw on HEAD as unchanged, and the change's own as new", () => {
    // Node's own test runner: a real tool with located failures, and no start-up to wait for.
    const test = [
      "import test from 'node:test';",
      "import assert from 'node:assert';",
      "import { readFileSync } from 'node:fs';",
      "test('old', () => assert.strictEqual(1, 2));",
      "test('fresh', () => assert.strictEqual(readFileSync('flag.txt', 'utf8'), 'ok'));",
      '',
    ].join('\n');
    repo = makeRepo({ 'gate.config.json': JSON.stringify({ gates: [{ name: 'test', preset: 'node-test' }] }), 'a.test.mjs': test, 'flag.txt': 'ok' });
    expect(runBin(['check', '--all'], { cwd: repo.dir, env: repo.env }).code).toBe(1);
    repo.write('flag.txt', 'broken');
    const sarif = join(repo.home, 'gate.sarif');
    expect(runBin(['check', '--all', '--sarif', sarif], { cwd: repo.dir, env: repo.env }).code).toBe(1);
    const results: Array<{ message: { text: string }; baselineState: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> = JSON.parse(readFileSync(sarif, 'utf8')).runs[0].results;
    expect(results.map((result) => `${result.message.text.split(':')[0]} ${result.baselineState} ${result.locations[0]?.physicalLocation.artifactLocation.uri}`).sort()).toEqual(['a.test.mjs > fresh new a.test.mjs', 'a.test.mjs > old unchanged a.test.mjs']);
  });

  it('answers --help for the hook command too, which the bin otherwise hands to the hook bundle', () => {
    repo = makeRepo({ 'a.ts': '' });
    const help = runBin(['run', '--help'], { cwd: repo.dir, env: repo.env });
    expect(help).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^usage: gate run \[--harness NAME\]\n/) });
    expect(runBin(['ci', '-h'], { cwd: repo.dir, env: repo.env })).toMatchObject({ code: 0, stdout: expect.stringMatching(/^usage: gate ci /) });
  });

  it('runs every gate with --all, and the named ones when asked', () => {
    repo = makeRepo(vitestProject(twoGates), { nodeModules: true });
    const all = runBin(['check', '--all'], { cwd: repo.dir, env: repo.env });
    expect(all.code).toBe(0);
    expect(all.stderr).toMatch(/✔ test {2}passed/);
    expect(all.stderr).toMatch(/✔ docs {2}passed/);
    const named = runBin(['check', 'docs'], { cwd: repo.dir, env: repo.env });
    expect(named.stderr).toMatch(/✔ docs/);
    expect(named.stderr).not.toMatch(/test/);
  });

  it('says when nothing changed, and explains --all', () => {
    repo = makeRepo(vitestProject(twoGates), { nodeModules: true });
    const result = runBin(['check'], { cwd: repo.dir, env: repo.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Nothing to check.*--all/);
  });

  it('prints machine-readable results with --json', () => {
    repo = makeRepo(vitestProject(twoGates), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = runBin(['check', '--json'], { cwd: repo.dir, env: repo.env });
    const parsed = JSON.parse(result.stdout);
    expect(parsed.ok).toBe(false);
    expect(parsed.results).toEqual([expect.objectContaining({ name: 'test', status: 'failed', exitCode: 1, outcome: 'failed (exit 1)' })]);
    expect(typeof parsed.results[0].durationMs).toBe('number');
  });

  it('rejects an unknown gate name and an invalid config with distinct exit codes', () => {
    repo = makeRepo(vitestProject(twoGates), { nodeModules: true });
    const unknown = runBin(['check', 'nope'], { cwd: repo.dir, env: repo.env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no gate named nope; the gates are: test, docs/);
    repo.write('gate.config.json', '{"gates": [{"name": "test", "preset": "vitets"}]}');
    const invalid = runBin(['check'], { cwd: repo.dir, env: repo.env });
    expect(invalid.code).toBe(3);
    expect(invalid.stderr).toMatch(/gate\.config\.json: gates\[0\]\.preset: unknown preset "vitets"; did you mean "vitest"\?/);
  });

  it('says how to set up when there is no config', () => {
    repo = makeRepo({ 'a.ts': '' });
    const result = runBin(['check'], { cwd: repo.dir, env: repo.env });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/no gate\.config\.json or gate\.local\.json found.*gate init/);
  });
});

describe('gate status', () => {
  it('explains what a stop would do and why', () => {
    repo = makeRepo(vitestProject(twoGates), { nodeModules: true });
    repo.write('src/sum.ts', SUM_BROKEN);
    const text = runBin(['status'], { cwd: repo.dir, env: repo.env }).stdout;
    expect(text).toMatch(/changed: +src\/sum\.ts/);
    expect(text).toMatch(/run +test: src\/sum\.ts changed/);
    expect(text).toMatch(/skip docs: no changed file matches its "on" globs/);
    expect(text).toMatch(/logs: +\.git\/gate\/logs/);
    const json = JSON.parse(runBin(['status', '--json'], { cwd: repo.dir, env: repo.env }).stdout);
    expect(json).toMatchObject({ changedFiles: ['src/sum.ts'], baseline: 'HEAD', alreadyPassed: false });
  });
});

describe('gate filter, --help, --version', () => {
  it('prints what the agent would read for raw output on stdin', () => {
    repo = makeRepo({});
    const raw = '\x1b[31mFAIL\x1b[39m x\n    at f (/app/node_modules/lib/index.js:1:1)\n    at g (/app/src/a.ts:3:4)\n';
    const result = runBin(['filter', '--filter', 'generic'], { cwd: repo.dir, env: repo.env, input: raw });
    expect(result).toMatchObject({ code: 0, stdout: 'FAIL x\n    at g (/app/src/a.ts:3:4)\n' });
    expect(runBin(['filter', '--filter', 'nope'], { cwd: repo.dir, env: repo.env }).code).toBe(2);
  });

  it('answers --help and --version, and rejects an unknown command', () => {
    repo = makeRepo({});
    expect(runBin(['--help'], { cwd: repo.dir, env: repo.env }).stdout).toMatch(/gate check/);
    expect(runBin(['--version'], { cwd: repo.dir, env: repo.env }).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const unknown = runBin(['frobnicate'], { cwd: repo.dir, env: repo.env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });
});
