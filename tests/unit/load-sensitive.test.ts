import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResolvedGate } from '../../src/config/load-config.js';
import type { GateResult } from '../../src/runner/gate-result.js';
import { describeAloneRerun, rerunLoadSensitive, type AloneOptions } from '../../src/transient/load-sensitive.js';

// Issue 37, point 6: how a rerun alone merges with the first run (the real tools: tests/e2e/load-sensitive.test.ts).

// The failing test files exist: only a run that can select them is made alone (src/transient/load-sensitive.ts).
const ROOT = mkdtempSync(join(tmpdir(), 'gate-load-sensitive-'));
for (const file of ['tests/test_a.py', 'tests/test_b.py']) {
  mkdirSync(join(ROOT, 'tests'), { recursive: true });
  writeFileSync(join(ROOT, file), 'def test_placeholder():\n    pass\n');
}
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

function pytestOutput(failed: string[]): string {
  const summary = failed.map((id) => `FAILED ${id} - assert False`);
  const tail = failed.length === 0 ? '============================== 3 passed in 0.05s ===============================' : `============================== ${failed.length} failed in 0.05s ===============================`;
  const lines = ['============================= test session starts ==============================', 'collected 3 items', '', '=========================== short test summary info ============================', ...summary, tail];
  return `${lines.join('\n')}\n`;
}

const ALL = ['tests/test_a.py::test_slow', 'tests/test_b.py::test_one', 'tests/test_b.py::test_two'];

function gate(preset = 'pytest', extra: Partial<ResolvedGate> = {}): ResolvedGate {
  return { name: 'test', shortName: 'test', configDir: ROOT, preset, kind: preset === 'pytest' ? 'test' : 'lint', run: ['pytest'], shell: false, on: ['**/*'], ignore: [], timeoutSeconds: 300, filter: preset, tier: { by: 'python-imports', run: ['pytest', '-q', '{files}'], fullRunOn: [] }, fastOff: false, cwd: ROOT, env: {}, retries: 0, ...extra };
}

function result(failed: string[], extra: Partial<GateResult> = {}): GateResult {
  const status = failed.length === 0 ? 'passed' : 'failed';
  return { name: 'test', status, command: 'pytest', exitCode: failed.length === 0 ? 0 : 1, signal: undefined, output: pytestOutput(failed), filter: 'pytest', durationMs: 2000, logPath: '/logs/test.log', timeoutSeconds: 300, ...extra };
}

async function rerun(first: GateResult, alone: GateResult | undefined, options: Partial<AloneOptions> & { gate?: ResolvedGate } = {}) {
  const asked: boolean[] = [];
  const found = await rerunLoadSensitive([first], {
    root: ROOT,
    changed: [],
    beside: new Set(['test']),
    selections: [{ gate: options.gate ?? gate(), run: true, reason: '', files: [], partial: true }],
    projectDir: ROOT,
    stateDir: '/state',
    env: {},
    runAlone: async (_gate, narrowed) => {
      asked.push(narrowed);
      if (!alone) throw new Error('not to be run again');
      return alone;
    },
    ...options,
  });
  return { ...found, asked };
}

describe('a test runner that failed beside other gates, run again alone', () => {
  it('passes alone: the gate passed, a flake, and the human is told which tests', async () => {
    const found = await rerun(result(ALL), result([]));
    expect(found.results[0]).toMatchObject({ status: 'passed', flaky: { attempts: 2 } });
    expect(found.results[0]?.flaky?.firstOutput).toContain('FAILED tests/test_a.py::test_slow');
    expect(found.reruns.map(describeAloneRerun)).toEqual([
      'gate: test failed while other gates ran beside it, so its 3 failing tests the change does not reach ran again alone: flaky (passed alone, failed under load): tests/test_a.py::test_slow, tests/test_b.py::test_one, tests/test_b.py::test_two — not blocking.',
    ]);
  });

  it('some pass alone: the run alone is the result, without them', async () => {
    const again = result(['tests/test_b.py::test_one'], { logPath: '/logs/test.alone.log' });
    const found = await rerun(result(ALL), again);
    expect(found.results[0]).toMatchObject({ status: 'failed', logPath: '/logs/test.alone.log', output: again.output });
    expect(found.leftOut.size).toBe(0);
    expect(describeAloneRerun(found.reruns[0]!)).toMatch(/flaky \(passed alone, failed under load\): tests\/test_a\.py::test_slow, tests\/test_b\.py::test_two — left out of the report; its other failure still counts\.$/);
  });

  it('never runs again a failure in a file the turn changed; the flaky others are left out of the report', async () => {
    const first = result(ALL);
    const found = await rerun(first, result([]), { changed: ['tests/test_b.py'] });
    expect(found.results[0]).toBe(first);
    expect(found.leftOut).toEqual(new Map([['test', ['tests/test_a.py::test_slow']]]));
    expect(describeAloneRerun(found.reruns[0]!)).toMatch(/its failing test the change does not reach ran again alone: flaky .*: tests\/test_a\.py::test_slow — left out of the report; its other 2 failures still count\.$/);
  });

  it('failed again, every one: the first run stands and nothing is said', async () => {
    const first = result(ALL);
    const found = await rerun(first, result(ALL));
    expect(found.results[0]).toBe(first);
    expect(found.reruns).toEqual([]);
  });

  it('no verdict alone (timed out, ran no test): every failure counts, and the human is told why', async () => {
    const first = result(ALL);
    const timedOut = await rerun(first, result([], { status: 'timed-out', detail: 'killed after 3 s' }));
    expect(timedOut.results[0]).toBe(first);
    expect(describeAloneRerun(timedOut.reruns[0]!)).toMatch(/: it timed out \(killed after 3 s\), so every failure counts\.$/);
    const none = await rerun(first, result([], { output: 'collected 0 items\n\nno tests ran in 0.01s\n' }));
    expect(none.results[0]).toBe(first);
    expect(describeAloneRerun(none.reruns[0]!)).toMatch(/: it ran no test, so every failure counts\.$/);
  });

  it('is not run again: a run the fast tier narrowed to what the change reaches, a gate that ran alone, a linter, no time left, a command that cannot select its tests', async () => {
    const cases: Array<[GateResult, Partial<AloneOptions> & { gate?: ResolvedGate }]> = [
      [result(ALL, { narrowed: true }), {}],
      // Its own command (the suite once per stop: a second whole run at every block is not paid).
      [result(ALL), { gate: gate('pytest', { run: ['sh', '-c', 'pytest -q'], tier: undefined }) }],
      [result(ALL), { beside: new Set() }],
      [{ ...result(ALL), filter: 'ruff' }, { gate: gate('ruff') }],
      [result(ALL), { deadline: 1_000_000 + 1500, now: () => 1_000_000 }],
    ];
    for (const [first, options] of cases) {
      const found = await rerun(first, undefined, options);
      expect(found.results[0]).toBe(first);
      expect(found.asked).toEqual([]);
    }
  });
});
