import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUM_OK, vitestProject } from '../helpers/fixtures.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 25, point 6: a test rewritten to what the broken code returns passes, and the stop is let
// through with a warning to the human. That finding must reach the stop log, `gate log`,
// `gate verdict` and `gate ci`, or `claude -p … && npx gate verdict` passes the bug.

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const SUM_DOUBLED = SUM_OK.replace('a + b', 'a * b');
const TEST = (expected: number) => `import { describe, expect, it } from 'vitest';
import { sum } from './sum.js';

describe('sum', () => {
  it('adds two numbers', () => {
    expect(sum(2, 3)).toBe(${expected});
  });
});
`;
const FINDING = 'src/sum.test.ts:6: expectation changed to the value the code returned (6)';

const bin = (...args: string[]) => runBin(args, { cwd: repo.dir, env: repo.env });
const lastStop = () => JSON.parse(readFileSync(join(repo.dir, '.git', 'gate', 'stops.jsonl'), 'utf8').trim().split('\n').at(-1) ?? '{}');

/** Green at the start; the code broken and the stop refused; then the test rewritten to match the bug. */
function tamperedTurn(tamper: 'warn' | 'off'): void {
  repo = makeRepo({ ...vitestProject({ tamper, gates: [{ name: 'test', preset: 'vitest' }] }), 'src/sum.test.ts': TEST(5) }, { nodeModules: 'with-gate' });
  expect(promptStart(repo, 'tampered').code).toBe(0);
  repo.write('src/sum.ts', SUM_DOUBLED);
  const blocked = stop(repo, 'tampered');
  expect(blocked.code, `${blocked.stdout}${blocked.stderr}`).toBe(2);
  repo.write('src/sum.test.ts', TEST(6));
  const allowed = stop(repo, 'tampered');
  expect(allowed.code, allowed.stderr).toBe(0);
}

describe('a tamper finding let through at a stop', () => {
  it('is in the stop log and gate log, and fails gate verdict and gate ci', () => {
    tamperedTurn('warn');
    expect(lastStop()).toMatchObject({
      outcome: 'allow',
      reason: 'all passed',
      tamper: { count: 1, sample: [{ path: 'src/sum.test.ts', line: 6, kind: 'weakened-test', detail: 'expectation changed to the value the code returned (6)' }] },
    });
    expect(bin('log').stdout.trim().split('\n').at(-1)).toContain(`tamper: ${FINDING}`);

    const verdict = bin('verdict');
    expect(verdict.code, verdict.stdout).toBe(1);
    expect(verdict.stdout).toMatch(/^fail: session tampered, last stop \S+ \(claude\): every gate passed, but the session let through 1 change that skips, deletes or weakens a test or check \(the tamper check\)\.\ngates: test passed; report: \.git\/gate\/reports\/tampered\.txt\n/);
    expect(verdict.stdout).toContain(`\ntamper: ${FINDING}\n`);
    expect(JSON.parse(bin('verdict', '--json').stdout)).toMatchObject({ verdict: 'fail', kind: 'tampering', tamper: [{ path: 'src/sum.test.ts', line: 6, kind: 'weakened-test' }] });

    const ci = bin('ci');
    expect(ci.code, ci.stdout).toBe(1);
    expect(ci.stdout.split('\n')[0]).toBe("gate ci: FAIL — 1 gate passed; tamper check: not run (no --base); 1 finding let through by the agent's stops (session tampered), blocking");
    expect(ci.stdout).toContain(FINDING);
    expect(bin('ci', '--tamper', 'warn').code).toBe(0);
  });

  it('with "tamper": "block", is looked for again after its block, so another edit does not let it through', () => {
    repo = makeRepo({ ...vitestProject({ tamper: 'block', gates: [{ name: 'test', preset: 'vitest' }] }), 'src/sum.test.ts': TEST(5) }, { nodeModules: 'with-gate' });
    promptStart(repo, 'tampered');
    repo.write('src/sum.ts', SUM_DOUBLED);
    expect(stop(repo, 'tampered').code).toBe(2);
    repo.write('src/sum.test.ts', TEST(6));
    const tamperBlock = stop(repo, 'tampered');
    expect(tamperBlock.code).toBe(2);
    expect(tamperBlock.stderr).toContain(FINDING);
    // The agent edits something else and stops again: the rewritten test is still there.
    repo.write('README.md', '# fixture, edited\n');
    const again = stop(repo, 'tampered');
    expect(again.code, again.stdout).toBe(2);
    expect(again.stderr).toContain(FINDING);
    expect(bin('verdict').code).toBe(1);
    // Undone: the test fails again, as it should until the code is fixed.
    repo.write('src/sum.test.ts', TEST(5));
    repo.write('src/sum.ts', SUM_OK);
    expect(stop(repo, 'tampered').code).toBe(0);
    expect(bin('verdict').code).toBe(0);
  });

  // Issue 38, point 1: deleting the config used to be "no config here": allowed, no log, no verdict.
  it('a config the turn deleted: the stop runs the gates the turn started with, and the deletion is a finding', () => {
    const check = "const v = require('node:fs').readFileSync('value.txt', 'utf8').trim(); if (v !== 'ok') { console.error('value is ' + v); process.exit(1); }";
    repo = makeRepo({ 'gate.config.json': JSON.stringify({ gates: [{ name: 'test', run: ['node', '-e', check], on: ['*.txt'] }] }), 'value.txt': 'ok\n' });
    promptStart(repo, 'deleted');
    repo.git('rm', '-q', 'gate.config.json');
    repo.write('value.txt', 'broken\n');
    const blocked = stop(repo, 'deleted');
    expect(blocked.code, `${blocked.stdout}${blocked.stderr}`).toBe(2);
    expect(blocked.stderr).toContain('gate.config.json: deletes gate.config.json');
    expect(blocked.stderr).toContain('value is broken');
    expect(lastStop()).toMatchObject({ session: 'deleted', outcome: 'block', tamper: { count: 1, sample: [{ path: 'gate.config.json', kind: 'gate-config', detail: 'deletes gate.config.json' }] } });
    expect(bin('verdict', '--session', 'deleted').code).toBe(1);
  });

  // Issue 38, point 12: a reformatted config blocked as "changes a gate command"; a check script made `exit 0` was unseen.
  it('with "tamper": "block", a reformatted config is no finding, and a check script a gate runs made to exit 0 is', () => {
    const config = { tamper: 'block', gates: [{ name: 'check', run: ['sh', 'check.sh'], on: ['*.txt', '*.sh'] }] };
    const check = (lines: string[]) => ['#!/bin/sh', ...lines, 'grep -qx ok value.txt || { echo "value is not ok"; exit 1; }', ''].join('\n');
    repo = makeRepo({ 'gate.config.json': `${JSON.stringify(config, null, 2)}\n`, 'check.sh': check([]), 'value.txt': 'ok\n' });
    promptStart(repo, 'reformatted');
    const reordered = { gates: [{ on: ['*.txt', '*.sh'], run: ['sh', 'check.sh'], name: 'check' }], tamper: 'block' };
    repo.write('gate.config.json', `${JSON.stringify(reordered, null, 4).replace(/\n/g, '\r\n')}\r\n`);
    repo.write('check.sh', check(['exit 0']));
    repo.write('value.txt', 'broken\n');
    const blocked = stop(repo, 'reformatted');
    expect(blocked.code, `${blocked.stdout}${blocked.stderr}`).toBe(2);
    expect(blocked.stderr).toContain('check.sh:2: adds "exit 0" before its checks (the gate "check" runs this script)');
    expect(blocked.stderr).not.toContain('gate.config.json');
  });

  it('does not count with "tamper": "off"', () => {
    tamperedTurn('off');
    expect(lastStop().tamper).toBeUndefined();
    expect(bin('verdict')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pass: session tampered, /) });
    expect(bin('ci')).toMatchObject({ code: 0, stdout: 'gate ci: PASS — 1 gate passed; tamper check: off\n' });
  });
});
