import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUM_BROKEN, SUM_CHECK_GATE, SUM_OK, vitestProject } from '../helpers/fixtures.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const gate = (...args: string[]) => runBin(args, { cwd: repo.dir, env: repo.env });
const record = () => join(repo.dir, '.git', 'gate', 'receipt.json');
// Two quick gates (the test gate red while src/sum.ts subtracts): the receipt cares that every gate
// ran, not what they run. The stops below, which narrow or not, run vitest.
const TWO_GATES = { gates: [SUM_CHECK_GATE, { name: 'lint', run: ['node', '-e', ''] }] };
const HINT = 'Run "gate check --all" to record one for this tree.\n';

/** The fixture, with the personal config ignored: editing it changes the config, not the tree. */
function project(config: object = TWO_GATES): TempRepo {
  return makeRepo({ ...vitestProject(config), '.gitignore': 'node_modules\ngate.local.json\n' }, { nodeModules: true });
}

describe('gate receipt', () => {
  it('NONE at first, PASS after gate check --all, STALE after an edit, FAIL after a failing check --all', () => {
    repo = project();
    expect(gate('receipt')).toMatchObject({ code: 2, stdout: `NONE: no full run of every gate is recorded here.\n${HINT}` });

    expect(gate('check', '--all').code).toBe(0);
    const head = repo.git('rev-parse', 'HEAD').trim().slice(0, 7);
    const pass = gate('receipt');
    expect(pass.code).toBe(0);
    expect(pass.stdout).toMatch(
      new RegExp(
        `^PASS: every gate passed on exactly this tree and config\\.\\ncommit ${head} \\(clean work tree\\), tree [0-9a-f]{16}, by gate check --all at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\n  ✔ test  passed  \\S+\\n  ✔ lint  passed  \\S+\\n$`,
      ),
    );

    const md = gate('receipt', '--md');
    expect(md.code).toBe(0);
    const lines = md.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['**gate receipt: PASS** — every gate passed on exactly this tree and config.', '']);
    expect(lines[2]).toMatch(new RegExp(`^commit \`${head}\` \\(clean work tree\\), tree \`[0-9a-f]{16}\`, by \`gate check --all\` at \\S+Z$`));
    expect(lines.slice(3, 6)).toEqual(['', '| gate | outcome | time |', '|---|---|---|']);
    expect(lines[6]).toMatch(/^\| test \| ✅ passed \| \d+(ms|\.\ds) \|$/);
    expect(lines[7]).toMatch(/^\| lint \| ✅ passed \| \d+(ms|\.\ds) \|$/);
    expect(lines.slice(8)).toEqual(['']);

    repo.write('src/sum.ts', SUM_BROKEN);
    expect(gate('receipt')).toMatchObject({ code: 2, stdout: `STALE: the work tree changed since the last full run, which was PASS.\n${HINT}` });
    expect(gate('receipt', '--md')).toMatchObject({ code: 2, stdout: '**gate receipt: STALE** — the work tree changed since the last full run, which was PASS.\n' });

    expect(gate('check', '--all').code).toBe(1);
    const fail = gate('receipt');
    expect(fail.code).toBe(1);
    expect(fail.stdout).toMatch(/^FAIL: 1 of 2 gates did not pass on exactly this tree and config \(test\)\.\ncommit [0-9a-f]{7} \(1 uncommitted change\), /);
    expect(fail.stdout).toMatch(/\n {2}✖ test {2}failed \(exit 1\) {2}\S+\n {2}✔ lint {2}passed {2}\S+\n$/);
    expect(gate('receipt', '--md').stdout).toMatch(/\n\| test \| ❌ failed \(exit 1\) \| \S+ \|\n\| lint \| ✅ passed \| \S+ \|\n$/);

    // A commit moves the tree too, even with the same files: the receipt names a commit.
    repo.write('src/sum.ts', SUM_OK);
    expect(gate('check', '--all').code).toBe(0);
    repo.git('commit', '-q', '--allow-empty', '-m', 'nothing');
    expect(gate('receipt').stdout).toMatch(/^STALE: the work tree changed since the last full run \(commit [0-9a-f]{7} then, [0-9a-f]{7} now\), which was PASS\.\n/);
  });

  it('STALE when only the config changed, with --json saying what the last run was', () => {
    repo = project();
    expect(gate('check', '--all').code).toBe(0);
    writeFileSync(join(repo.dir, 'gate.local.json'), '{ "maxBlocks": 5 }\n');
    const stale = gate('receipt', '--json');
    expect(stale.code).toBe(2);
    const parsed = JSON.parse(stale.stdout);
    expect(parsed).toMatchObject({
      state: 'stale',
      reason: 'the config changed since the last full run, which was PASS',
      current: { head: repo.git('rev-parse', 'HEAD').trim(), tree: expect.stringMatching(/^[0-9a-f]{16}$/), config: expect.stringMatching(/^[0-9a-f]{16}$/) },
      receipt: { version: 1, verdict: 'pass', by: 'check', gates: [{ name: 'test', status: 'passed' }, { name: 'lint', status: 'passed' }] },
    });
    expect(parsed.receipt.config).not.toBe(parsed.current.config);
    expect(parsed.receipt.tree.digest).toBe(parsed.current.tree);
  });

  it('NONE when the record was edited by hand, or is not JSON', () => {
    repo = project();
    repo.write('src/sum.ts', SUM_BROKEN);
    expect(gate('check', '--all').code).toBe(1);
    expect(gate('receipt').code).toBe(1);
    const text = readFileSync(record(), 'utf8');
    const forged = text.replace('"verdict":"fail"', '"verdict":"pass"').replace('"status":"failed","outcome":"failed (exit 1)"', '"status":"passed","outcome":"passed"');
    expect(forged).not.toBe(text);
    writeFileSync(record(), forged);
    expect(gate('receipt')).toMatchObject({ code: 2, stdout: `NONE: the record (.git/gate/receipt.json) does not match its digest: it was edited by hand or damaged.\n${HINT}` });
    expect(JSON.parse(gate('receipt', '--json').stdout)).toMatchObject({ state: 'none', receipt: null });
    writeFileSync(record(), '{ torn');
    expect(gate('receipt')).toMatchObject({ code: 2, stdout: `NONE: the record (.git/gate/receipt.json) cannot be read.\n${HINT}` });
  });

  it('writes none when GATE_SKIP left a gate out, and refuses --md with --json', () => {
    repo = project();
    const skipped = runBin(['check', '--all'], { cwd: repo.dir, env: { ...repo.env, GATE_SKIP: 'lint' } });
    expect(skipped).toMatchObject({ code: 0, stderr: expect.stringContaining('gate: no receipt: not every gate ran (lint)\n') });
    expect(existsSync(record())).toBe(false);
    expect(gate('receipt', '--md', '--json')).toMatchObject({ code: 2, stderr: 'gate: --md and --json are one or the other; usage: gate receipt [--md | --json]\n' });
  });
});

describe('a receipt from a green stop', () => {
  it('is written when the stop ran every gate in full, and not when it ran a fast tier', () => {
    repo = project({ gates: [{ name: 'test', preset: 'vitest', related: false }] });
    promptStart(repo, 'full');
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    expect(stop(repo, 'full').code).toBe(0);
    expect(gate('receipt').stdout).toMatch(/^PASS: every gate passed on exactly this tree and config\.\ncommit [0-9a-f]{7} \(1 uncommitted change\), tree [0-9a-f]{16}, by a stop at \S+Z\n {2}✔ test {2}passed {2}\S+\n$/);

    repo.cleanup();
    repo = project({ gates: [{ name: 'test', preset: 'vitest' }] });
    promptStart(repo, 'fast');
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    expect(stop(repo, 'fast').code).toBe(0);
    expect(gate('receipt').code).toBe(2);
    expect(existsSync(record())).toBe(false);
  });

  it("is not written when the stop did not load every config: a package's gates did not run", () => {
    repo = makeRepo(
      { ...vitestProject({ gates: [{ name: 'test', preset: 'vitest', related: false }] }), 'packages/a/gate.config.json': '{ "gates": [{ "name": "lint", "run": ["true"] }] }\n' },
      { nodeModules: true },
    );
    promptStart(repo, 'root-only');
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    expect(stop(repo, 'root-only').code).toBe(0);
    expect(existsSync(record())).toBe(false);
    expect(gate('check', '--all').code).toBe(0);
    expect(gate('receipt').stdout).toMatch(/\n {2}✔ test {13}passed {2}\S+\n {2}✔ packages\/a:lint {2}passed {2}\S+\n$/);
  });

  it('is not written when the stop ran only some of the gates', () => {
    repo = project({ gates: [{ name: 'test', preset: 'vitest', related: false }, { name: 'docs', run: ['node', '-e', ''], on: ['docs/**'] }] });
    promptStart(repo, 'some');
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    expect(stop(repo, 'some').code).toBe(0);
    expect(existsSync(record())).toBe(false);
  });
});
