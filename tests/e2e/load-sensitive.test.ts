import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUM_BROKEN, SUM_OK, vitestProject } from '../helpers/fixtures.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 37, point 6: a test that fails only under gate's load (urql's useQuery.spec.ts waits 30 ms).
// Load, deterministically: gate `busy` holds a flag file while it runs, and the test fails while the
// flag is there — "fails only beside another gate". Each side waits for the other's flag, not for
// time; the flags live under .git/, which no copy of the starting commit has. A run the fast tier
// narrowed to the tests the change reaches is never run again: tests/unit/load-sensitive.test.ts.

let repo: TempRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

// Holds .git/flags/busy until the test has looked (at most 60 s), then lets go.
const BUSY = `const fs = require('node:fs');
fs.writeFileSync('.git/flags/busy', '');
const end = Date.now() + 60000;
const wait = () => {
  if (!fs.existsSync('.git/flags/seen') && Date.now() < end) return setTimeout(wait, 20);
  fs.rmSync('.git/flags/busy', { force: true });
};
wait();
`;

// The first run (armed, not yet seen) waits until busy holds its flag; a run alone later does not.
// It also reads src/limit.ts as text, not as an import: a change there reaches no test by imports.
const TIMING_TEST = `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('answers within its time', { timeout: 60000 }, async () => {
  if (existsSync('.git/flags/armed') && !existsSync('.git/flags/seen')) {
    for (let i = 0; i < 2500 && !existsSync('.git/flags/busy'); i++) await new Promise((done) => setTimeout(done, 20));
  }
  const underLoad = existsSync('.git/flags/busy');
  if (existsSync('.git/flags')) writeFileSync('.git/flags/seen', '');
  expect(underLoad, 'another gate ran beside it').toBe(false);
  expect(readFileSync('src/limit.ts', 'utf8')).toContain('30');
});
`;

function project(): TempRepo {
  // The full run (no fast tier): it runs the tests the change does not reach, as urql's did.
  const gates = [
    { name: 'test', preset: 'vitest', related: false },
    { name: 'busy', run: ['node', '-e', BUSY], on: ['src/**'] },
  ];
  const made = makeRepo(
    {
      ...vitestProject({ concurrency: 2, gates }),
      'src/limit.ts': 'export const limitMs = 30;\n',
      'src/timing.test.ts': TIMING_TEST,
    },
    { nodeModules: true },
  );
  mkdirSync(join(made.dir, '.git', 'flags'));
  writeFileSync(join(made.dir, '.git', 'flags', 'armed'), '');
  return made;
}

const systemMessage = (stdout: string): string => JSON.parse(stdout).systemMessage;
const lastStop = (r: TempRepo) =>
  (JSON.parse(runBin(['log', '--json'], { cwd: r.dir, env: r.env }).stdout) as Array<{ reason?: string; gates: Array<{ name: string; status: string; flaky?: string[] }> }>).at(-1);

const TEST_ID = 'src/timing.test.ts > answers within its time';

describe('a test that fails only while other gates run beside it', () => {
  it('runs again alone when the change does not reach it, passes, and is flaky, not blocking', () => {
    repo = project();
    promptStart(repo);
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    const result = stop(repo);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const told = systemMessage(result.stdout);
    expect(told).toContain(`gate: test failed while other gates ran beside it, so its failing test the change does not reach ran again alone: flaky (passed alone, failed under load): ${TEST_ID} — not blocking.`);
    expect(told).toContain(`gate: flaky — test failed, then passed on run 2: ${TEST_ID}.`);
    expect(lastStop(repo)?.gates.find((gate) => gate.name === 'test')).toMatchObject({ status: 'passed', flaky: [TEST_ID] });
  });

  it('leaves only the flaky test out of a report that still blocks on what the turn broke', () => {
    repo = project();
    promptStart(repo);
    repo.write('src/sum.ts', SUM_BROKEN);
    const result = stop(repo);
    expect(result.code).toBe(2);
    // The report is the run alone of the two failing test files: the turn's failure, not the flaky one.
    expect(result.stderr).toContain('$ npx vitest run --reporter=default src/sum.test.ts src/timing.test.ts');
    expect(result.stderr).toContain('sum > adds two numbers');
    expect(result.stderr).not.toContain('answers within its time');
    expect(systemMessage(result.stdout)).toContain(`flaky (passed alone, failed under load): ${TEST_ID} — left out of the report; its other failure still counts.`);
    expect(lastStop(repo)?.gates.find((gate) => gate.name === 'test')).toMatchObject({ status: 'failed', flaky: [TEST_ID] });
  });

  it('blocks when the turn changed the failing test file itself: never run again, never excused', () => {
    repo = project();
    promptStart(repo);
    repo.write('src/timing.test.ts', `// edited\n${TIMING_TEST}`);
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('answers within its time');
    expect(result.stderr).toContain('another gate ran beside it');
    expect(result.stderr).not.toMatch(/ran again alone|flaky/);
    expect(lastStop(repo)?.gates.find((gate) => gate.name === 'test')?.flaky).toBeUndefined();
  });

  it('blocks when the test fails alone too: the first run stands', () => {
    repo = project();
    promptStart(repo);
    repo.write('src/limit.ts', 'export const limitMs = 90;\n');
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('answers within its time');
    expect(systemMessage(result.stdout)).not.toMatch(/ran again alone|flaky/);
    expect(lastStop(repo)?.gates.find((gate) => gate.name === 'test')?.flaky).toBeUndefined();
    // It did run alone, and failed there on the limit.
    expect(readFileSync(join(repo.dir, '.git', 'gate', 'logs', 'test.alone.log'), 'utf8')).toContain("expected 'export const limitMs = 90;\\n' to contain '30'");
  });
});
