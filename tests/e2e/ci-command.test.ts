import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SUM_BROKEN, SUM_OK, SUM_TEST, vitestProject } from '../helpers/fixtures.js';
import { runBin } from '../helpers/run-bin.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const SKIPPED_TEST = SUM_TEST.replace("  it('adds", "  it.skip('adds");
const NEW_TEST = "\ndescribe('more', () => {\n  it('adds in any order', () => {\n    expect(sum(2, 1)).toBe(3);\n  });\n});\n";
/** A pull request that breaks `sum`, adds a test that shows it, and skips the old test. */
const BROKEN_AND_SKIPPED = { 'src/sum.ts': SUM_BROKEN, 'src/sum.test.ts': `${SKIPPED_TEST}${NEW_TEST.replace('sum(2, 1)', 'sum(1, 2)')}` };

/** main holds the fixture; `pr` is branched from it and gets `files`, committed. */
function pullRequest(files: Record<string, string>, config?: object): TempRepo {
  const made = makeRepo(vitestProject(config), { nodeModules: 'with-gate' });
  made.git('checkout', '-q', '-b', 'pr');
  for (const [path, content] of Object.entries(files)) made.write(path, content);
  made.commit('the pull request');
  return made;
}

const out = (name: string) => join(repo.home, name);
const ci = (...args: string[]) => runBin(['ci', ...args], { cwd: repo.dir, env: repo.env });
const json = (name: string) => JSON.parse(readFileSync(out(name), 'utf8'));

describe('gate ci on a pull request branch', () => {
  it('fails a branch that breaks a test and skips another, with both in the summary and the JSON', () => {
    repo = pullRequest(BROKEN_AND_SKIPPED);
    const result = ci('--base', 'main', '--json', out('ci.json'), '--summary', out('summary.md'));
    expect(result.code).toBe(1);
    const mergeBase = repo.git('rev-parse', 'main').trim();
    const short = mergeBase.slice(0, 7);
    expect(result.stdout.split('\n')[0]).toBe(`gate ci: FAIL — 1 of 1 gates failed (test); tamper check: 1 finding in 2 files changed since main (merge base ${short}), blocking`);
    // The full command: no fast tier, whatever the change.
    expect(result.stdout).toContain('$ npx vitest run --reporter=default\n');
    expect(result.stdout).toContain('more > adds in any order');
    expect(result.stdout).toContain('expected -1 to be 3');
    expect(result.stdout).toContain('## tamper check: this change skips, deletes or weakens tests or checks\nsrc/sum.test.ts:5: adds it.skip(\n');
    expect(result.stderr).toMatch(/^✖ test {2}failed \(exit 1\) {2}\S+\n$/);

    const summary = readFileSync(out('summary.md'), 'utf8');
    expect(summary).toMatch(
      new RegExp(
        `^## gate ci: ❌ FAIL\\n\\n1 of 1 gates failed \\(test\\); tamper check: 1 finding in 2 files changed since \`main\` \\(merge base \`${short}\`\\), blocking\\n\\n\\| gate \\| outcome \\| time \\|\\n\\|---\\|---\\|---\\|\\n\\| test \\| ❌ failed \\(exit 1\\) \\| \\S+ \\|\\n\\n### Report\\n\\n\`\`\`text\\ngate ci: 1 of 1 checks failed \\(test\\)\\.\\n`,
      ),
    );
    expect(summary).toContain('src/sum.test.ts:5: adds it.skip(\n');
    expect(summary.endsWith('unless the user asked for it.\n```\n')).toBe(true);

    const parsed = json('ci.json');
    expect(parsed).toMatchObject({
      ok: false,
      failed: ['test'],
      gates: [{ name: 'test', status: 'failed', outcome: 'failed (exit 1)', command: 'npx vitest run --reporter=default', exitCode: 1, durationMs: expect.any(Number) }],
      tamper: {
        mode: 'block',
        base: { ref: 'main', mergeBase },
        changedFiles: 2,
        blocking: true,
        findings: [{ path: 'src/sum.test.ts', line: 5, kind: 'skip', detail: 'adds it.skip(' }],
        incomplete: null,
      },
    });
    expect(parsed.report).toBe(result.stdout.slice(result.stdout.indexOf('\n\n') + 2));
    // No agent session here: no session state, no receipt.
    expect(existsSync(join(repo.dir, '.git', 'gate', 'sessions'))).toBe(false);
    expect(existsSync(join(repo.dir, '.git', 'gate', 'receipt.json'))).toBe(false);
    expect(existsSync(join(repo.dir, '.git', 'gate', 'ci', 'logs', 'test.log'))).toBe(true);
  });

  it('passes a clean branch: its tests pass and it weakens nothing', () => {
    repo = pullRequest({ 'src/sum.ts': SUM_OK.replace('a + b', 'b + a'), 'src/sum.test.ts': `${SUM_TEST}${NEW_TEST}` });
    const result = ci('--base', 'main', '--json', out('ci.json'), '--summary', out('summary.md'));
    expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/^gate ci: PASS — 1 gate passed; tamper check: nothing found in 2 files changed since main \(merge base [0-9a-f]{7}\)\n$/) });
    expect(readFileSync(out('summary.md'), 'utf8')).toMatch(/^## gate ci: ✅ PASS\n\n1 gate passed; tamper check: nothing found in 2 files .*\n\n\| gate \| outcome \| time \|\n\|---\|---\|---\|\n\| test \| ✅ passed \| \S+ \|\n$/);
    expect(json('ci.json')).toMatchObject({ ok: true, failed: [], tamper: { blocking: false, findings: [] }, report: '' });
  });

  it('fails on tampering alone by default; --tamper warn reports it and passes, off does not look', () => {
    repo = pullRequest({ 'src/sum.test.ts': `${SKIPPED_TEST}${NEW_TEST}` });
    const blocked = ci('--base', 'main');
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toMatch(/^gate ci: FAIL — 1 gate passed; tamper check: 1 finding in 1 file changed since main \(merge base [0-9a-f]{7}\), blocking\n\ngate ci: every check passed, but the change skips, deletes or weakens tests or checks\.\n/);
    const warned = ci('--base', 'main', '--tamper', 'warn');
    expect(warned.code).toBe(0);
    expect(warned.stdout).toMatch(/^gate ci: PASS — 1 gate passed; tamper check: 1 finding in 1 file .*, warn only\n/);
    expect(warned.stdout).toContain('src/sum.test.ts:5: adds it.skip(');
    expect(ci('--base', 'main', '--tamper', 'off')).toMatchObject({ code: 0, stdout: 'gate ci: PASS — 1 gate passed; tamper check: off\n' });
    // Without a base there is no diff to read.
    expect(ci()).toMatchObject({ code: 0, stdout: 'gate ci: PASS — 1 gate passed; tamper check: not run (no --base)\n' });
  });

  it('appends to $GITHUB_STEP_SUMMARY by default', () => {
    repo = pullRequest({ 'src/sum.ts': SUM_BROKEN });
    writeFileSync(out('step-summary.md'), 'an earlier command of the step\n');
    const result = runBin(['ci', '--base', 'main'], { cwd: repo.dir, env: { ...repo.env, GITHUB_STEP_SUMMARY: out('step-summary.md') } });
    expect(result.code).toBe(1);
    expect(readFileSync(out('step-summary.md'), 'utf8')).toMatch(/^an earlier command of the step\n## gate ci: ❌ FAIL\n/);
  });

  it('runs every gate in full with a fresh {cache} each time, and exits 3 on a base it cannot find before running any', () => {
    // The gate fails when its {cache} folder holds anything from before, then leaves a file in it.
    const probe = "const fs = require('fs'); const dir = process.argv[1]; if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) process.exit(1); fs.mkdirSync(dir, { recursive: true }); fs.writeFileSync(dir + '/left', 'x');";
    repo = pullRequest({ 'docs/guide.md': '# Guide, edited\n' }, { gates: [{ name: 'test', preset: 'vitest' }, { name: 'fresh', run: ['node', '-e', probe, '{cache}'], on: ['nothing/**'] }] });
    expect(ci('--base', 'main', '--json', out('first.json')).code).toBe(0);
    expect(ci('--base', 'main', '--json', out('second.json')).code).toBe(0);
    // Neither gate was triggered by the docs change, and both ran.
    expect(json('second.json').gates.map((gate: { name: string; status: string }) => [gate.name, gate.status])).toEqual([
      ['test', 'passed'],
      ['fresh', 'passed'],
    ]);
    expect(existsSync(join(repo.dir, '.git', 'gate', 'cache'))).toBe(false);

    const missing = ci('--base', 'no-such-branch');
    expect(missing.code).toBe(3);
    // Only the error on stderr: no gate ran.
    expect(missing.stderr).toMatch(/^gate: cannot find where HEAD and "no-such-branch" meet .*fetch-depth: 0\.\n$/);
    expect(ci('--base', '--version').code).toBe(2);
    expect(ci('--tamper', 'maybe')).toMatchObject({ code: 2, stderr: expect.stringContaining('--tamper is block, warn or off, got "maybe"') });
  });
});

describe('the GitHub Action', () => {
  it('runs its own script as the runner would: gate ci from node_modules, the summary, the JSON, the output', () => {
    repo = pullRequest(BROKEN_AND_SKIPPED);
    const action = parse(readFileSync(join(PROJECT_ROOT, 'action.yml'), 'utf8'));
    const step = action.runs.steps.find((candidate: { id?: string }) => candidate.id === 'gate');
    const runnerTemp = out('runner-temp');
    mkdirSync(runnerTemp);
    const env = {
      ...repo.env,
      GATE_CI_BASE: 'main',
      GATE_CI_TAMPER: 'block',
      GATE_CI_ARGS: '',
      GATE_CI_SARIF: 'true',
      GATE_CI_COMMENT: 'true',
      GITHUB_ACTIONS: 'true',
      RUNNER_TEMP: runnerTemp,
      GITHUB_OUTPUT: out('github-output'),
      GITHUB_STEP_SUMMARY: out('step-summary.md'),
    };
    const result = spawnSync('bash', ['-e', '-c', step.run], { cwd: repo.dir, env, encoding: 'utf8', timeout: 120_000 });
    expect(result.status, result.stderr).toBe(1);
    // Under GitHub Actions, the annotations first (the runner reads them off stdout), then the verdict.
    const [failure, tampered, headline] = result.stdout.split('\n');
    expect(failure).toMatch(/^::error file=src\/sum\.test\.ts,line=\d+,title=test::src\/sum\.test\.ts > more > adds in any order: .*expected -1 to be 3/);
    expect(tampered).toBe('::error file=src/sum.test.ts,line=5,title=tamper check::adds it.skip(');
    expect(headline).toMatch(/^gate ci: FAIL — 1 of 1 gates failed \(test\); tamper check: 1 finding/);
    const sarif = join(runnerTemp, 'gate-ci.sarif');
    const comment = join(runnerTemp, 'gate-ci-comment.md');
    expect(readFileSync(out('github-output'), 'utf8')).toBe(`result=${runnerTemp}/gate-ci.json\nsarif=${sarif}\ncomment=${comment}\n`);
    expect(JSON.parse(readFileSync(join(runnerTemp, 'gate-ci.json'), 'utf8'))).toMatchObject({ ok: false, tamper: { base: { ref: 'main' }, blocking: true } });
    expect(readFileSync(out('step-summary.md'), 'utf8')).toMatch(/^## gate ci: ❌ FAIL\n/);
    // What the next steps upload and post: the test's failure and the skip as SARIF, the comment with its marker and digest.
    const log = JSON.parse(readFileSync(sarif, 'utf8'));
    expect(log.runs.map((run: { tool: { driver: { name: string } }; results: Array<{ ruleId: string; baselineState: string }> }) => [run.tool.driver.name, run.results.map((r) => `${r.ruleId} ${r.baselineState}`)])).toEqual([
      ['vitest', ['failing-test new']],
      ['stopgate tamper check', ['tamper/skip new']],
    ]);
    const body = readFileSync(comment, 'utf8');
    expect(body).toMatch(/^<!-- stopgate -->\n### gate ci: ❌ FAIL\n/);
    expect(body).toContain('- `src/sum.test.ts:5` adds it.skip(');
    expect(body).toMatch(/receipt digest `[0-9a-f]{64}`/);

    // The args input, split on spaces; an empty base (a push) leaves out the tamper check.
    const warned = spawnSync('bash', ['-e', '-c', step.run], { cwd: repo.dir, env: { ...env, GATE_CI_BASE: '', GATE_CI_ARGS: '--tamper warn', GITHUB_ACTIONS: '' }, encoding: 'utf8', timeout: 120_000 });
    expect(warned.status).toBe(1);
    expect(warned.stdout).toMatch(/^gate ci: FAIL — 1 of 1 gates failed \(test\); tamper check: not run \(no --base\)\n/);
  });
});
